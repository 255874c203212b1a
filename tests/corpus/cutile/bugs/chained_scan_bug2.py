# Twin of kernels/scans.py chained_scan with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(16,) x=i32[4096] y=i32[4096] flags=i32[16] partial=i32[16] TILE=256
@ct.kernel
def chained_scan(x, y, flags, partial, TILE: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,))
    total = ct.sum(t)
    prefix = ct.int32(0)
    if b > 0:
        while ct.load(flags, index=(b - 1,), shape=(), memory_order=ct.MemoryOrder.ACQUIRE,
                      memory_scope=ct.MemoryScope.DEVICE) == 0:
            pass
        prefix = ct.load(partial, index=(b - 1,), shape=())  # BUG: race.unordered error
    ct.store(partial, index=(b,), tile=prefix + total)  # BUG: race.unordered error
    # The flag set with a plain (weak) store: nothing orders the store of partial before it.
    ct.store(flags, index=(b,), tile=1)  # BUG: race.unordered error
    ct.store(y, index=(b,), tile=ct.cumsum(t, axis=0) + prefix)

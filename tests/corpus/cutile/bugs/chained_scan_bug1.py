# Twin of kernels/scans.py chained_scan with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(16,) x=i32[4096] y=i32[4096] flags=i32[16] partial=i32[16] TILE=256
@ct.kernel
def chained_scan(x, y, flags, partial, TILE: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,))
    total = ct.sum(t)
    prefix = ct.int32(0)
    # The wait for block b - 1's flag left out: its prefix is read whether written or not.
    if b > 0:
        prefix = ct.load(partial, index=(b - 1,), shape=())  # BUG: race.unordered error
    ct.store(partial, index=(b,), tile=prefix + total)  # BUG: race.unordered error
    ct.store(flags, index=(b,), tile=1, memory_order=ct.MemoryOrder.RELEASE,
             memory_scope=ct.MemoryScope.DEVICE)
    ct.store(y, index=(b,), tile=ct.cumsum(t, axis=0) + prefix)

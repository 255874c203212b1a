# Prefix sums: one block carrying a running total across tiles, per-row scans, a chained scan
# across blocks that hands each block's inclusive prefix to the next one through flags, and a
# running maximum with ct.scan.
import cuda.tile as ct


# tilesight: launch grid=(1,) x=i32[2048] y=i32[2048] TILE=256
@ct.kernel
def cumsum_single_block(x, y, TILE: ct.Constant[int]):
    # Launched with one block; len(x) is a multiple of TILE.
    carry = ct.zeros((1,), dtype=ct.int32)
    for j in range(x.shape[0] // TILE):
        t = ct.load(x, index=(j,), shape=(TILE,))
        ct.store(y, index=(j,), tile=ct.cumsum(t, axis=0) + carry)
        carry = carry + ct.sum(t, axis=0, keepdims=True)


# tilesight: launch grid=(4,) x=f32[32,128] y=f32[32,128] TM=8 TN=128
@ct.kernel
def scan_rows(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    # Inclusive cumulative sum of every row; a row is one tile wide.
    bm = ct.bid(0)
    t = ct.load(x, index=(bm, 0), shape=(TM, TN))
    ct.store(y, index=(bm, 0), tile=ct.cumsum(t, axis=1))


# tilesight: launch grid=(16,) x=i32[4096] y=i32[4096] flags=i32[16] partial=i32[16] TILE=256
@ct.kernel
def chained_scan(x, y, flags, partial, TILE: ct.Constant[int]):
    # flags and partial: one int32 per block, flags 0 at launch. Block b waits for block b-1
    # to publish its inclusive prefix (flag set with release, read with acquire), publishes
    # its own, then writes its tile of the scan.
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,))
    total = ct.sum(t)
    prefix = ct.int32(0)
    if b > 0:
        while ct.load(flags, index=(b - 1,), shape=(), memory_order=ct.MemoryOrder.ACQUIRE,
                      memory_scope=ct.MemoryScope.DEVICE) == 0:
            pass
        prefix = ct.load(partial, index=(b - 1,), shape=())
    ct.store(partial, index=(b,), tile=prefix + total)
    ct.store(flags, index=(b,), tile=1, memory_order=ct.MemoryOrder.RELEASE,
             memory_scope=ct.MemoryScope.DEVICE)
    ct.store(y, index=(b,), tile=ct.cumsum(t, axis=0) + prefix)


# tilesight: launch grid=(4,) x=f32[16,256] y=f32[16,256] TM=4 TN=256
@ct.kernel
def cummax_rows(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    # Running maximum along each row with a custom scan.
    bm = ct.bid(0)
    t = ct.load(x, index=(bm, 0), shape=(TM, TN))
    r = ct.scan(t, axis=1, func=lambda a, b: ct.maximum(a, b), identity=-3.0e38)
    ct.store(y, index=(bm, 0), tile=r)

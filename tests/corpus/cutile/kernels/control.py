# Control flow: break out of a search loop, continue past empty blocks of a block-sparse
# matrix, return early from blocks of an over-sized grid.
import cuda.tile as ct


# tilesight: launch grid=(4,) x=f32[4096] found=i32[4] thresh=0.999 SEG=1024 TILE=256
@ct.kernel
def first_above(x, found, thresh, SEG: ct.Constant[int], TILE: ct.Constant[int]):
    # Each block scans its segment of SEG elements tile by tile and records the index of the
    # first element > thresh, or -1; it stops at the first tile that has one.
    b = ct.bid(0)
    tiles_per_seg = SEG // TILE
    result = ct.int32(-1)
    for j in range(tiles_per_seg):
        t = b * tiles_per_seg + j
        v = ct.load(x, index=(t,), shape=(TILE,))
        idx = t * TILE + ct.arange(TILE, dtype=ct.int32)
        hit = ct.min(ct.where(v > thresh, idx, 2147483647))
        if hit != 2147483647:
            result = hit
            break
    ct.store(found, index=(b,), tile=result)


# tilesight: launch grid=(4,) A=f32[64,256] nz=i32[4,8] x=f32[256] y=f32[64] TM=16 TN=32
@ct.kernel
def block_sparse_mv(A, nz, x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    # y = A @ x where A's (TM, TN) blocks with nz[bm, bn] == 0 are zero and never read.
    bm = ct.bid(0)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for bn in range(A.shape[1] // TN):
        if ct.load(nz, index=(bm, bn), shape=()) == 0:
            continue
        a = ct.load(A, index=(bm, bn), shape=(TM, TN))
        xv = ct.load(x, index=(bn,), shape=(TN,))
        acc += a * xv.reshape((1, TN))
    ct.store(y, index=(bm,), tile=ct.sum(acc, axis=1))


# tilesight: launch grid=(10,) x=f32[2000] out=f32[2000] TILE=256
@ct.kernel
def guarded_tail(x, out, TILE: ct.Constant[int]):
    # Launched on a fixed grid that may be larger than needed: blocks past the last tile
    # return at once. out = |x|.
    b = ct.bid(0)
    if b * TILE >= x.shape[0]:
        return
    v = ct.load(x, index=(b,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(b,), tile=ct.abs(v))

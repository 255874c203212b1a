# Gather and scatter: an embedding lookup, a permutation, a segment sum with atomics.
import cuda.tile as ct


# tilesight: launch grid=(4,) table=f32[100,32] ids=i32[64] out=f32[64,32] TB=16 D=32
@ct.kernel
def embedding_gather(table, ids, out, TB: ct.Constant[int], D: ct.Constant[int]):
    # out[i, :] = table[ids[i], :]; TB ids per block, rows of exactly D elements.
    b = ct.bid(0)
    rows = ct.load(ids, index=(b,), shape=(TB,))
    cols = ct.arange(D, dtype=ct.int32)
    emb = ct.gather(table, (rows.reshape((TB, 1)), cols.reshape((1, D))))
    ct.store(out, index=(b, 0), tile=emb)


# tilesight: launch grid=(8,) x=f32[1000] perm=i32[1000] out=f32[1000] TILE=128
@ct.kernel
def scatter_perm(x, perm, out, TILE: ct.Constant[int]):
    # out[perm[i]] = x[i] for a permutation perm; n need not be a multiple of TILE, so the
    # lanes of the last tile past n are masked off (their gathered index is 0).
    b = ct.bid(0)
    n = x.shape[0]
    i = b * TILE + ct.arange(TILE, dtype=ct.int32)
    valid = i < n
    p = ct.gather(perm, i, mask=valid)
    v = ct.gather(x, i, mask=valid)
    ct.scatter(out, p, v, mask=valid)


# tilesight: launch grid=(8,) x=f32[2048] seg=i32[2048] out=f32[32] TILE=256
@ct.kernel
def segment_sum(x, seg, out, TILE: ct.Constant[int]):
    # out[seg[i]] += x[i]; segments ids are in range, many i share a segment.
    b = ct.bid(0)
    v = ct.load(x, index=(b,), shape=(TILE,))
    s = ct.load(seg, index=(b,), shape=(TILE,))
    ct.atomic_add(out, s, v, memory_order=ct.MemoryOrder.RELAXED)


# tilesight: launch grid=(16,) x=f32[4096] y=f32[4096] TILE=256
@ct.kernel
def stencil3(x, y, TILE: ct.Constant[int]):
    # y[i] = (x[i-1] + 2 x[i] + x[i+1]) / 4 with zeros outside the array: the neighbours are
    # gathered, out-of-range indices (-1 and n) read the padding value 0.
    b = ct.bid(0)
    i = b * TILE + ct.arange(TILE, dtype=ct.int32)
    left = ct.gather(x, i - 1)
    mid = ct.load(x, index=(b,), shape=(TILE,))
    right = ct.gather(x, i + 1)
    ct.store(y, index=(b,), tile=(left + 2.0 * mid + right) * 0.25)

# Reductions: along rows with a loop over column chunks, whole-array with atomics, argmax,
# a histogram.
import cuda.tile as ct


# tilesight: launch grid=(16,) x=f32[64,1000] out=f32[64] TM=4 TN=256
@ct.kernel
def row_sum(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    # Each block sums TM rows; the columns are walked in chunks of TN, the last one padded
    # with zeros (the column count need not be a multiple of TN). Grid: rows / TM.
    bm = ct.bid(0)
    ncols = x.shape[1]
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(ct.cdiv(ncols, TN)):
        acc += ct.load(x, index=(bm, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(bm,), tile=ct.sum(acc, axis=1))


# tilesight: launch grid=(8,) x=i32[4096] total=i32[1] TILE=512
@ct.kernel
def block_sum_atomic(x, total, TILE: ct.Constant[int]):
    # Integer sum of the whole array: each block reduces its tile and adds it to total[0].
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,))
    s = ct.sum(t)
    ct.atomic_add(total, 0, s, memory_order=ct.MemoryOrder.RELAXED)


# tilesight: launch grid=(3,) x=f32[200,48] out=f32[48] TM=64 TN=16
@ct.kernel
def col_max(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    # Maximum of every column: one block per strip of TN columns, walking down the rows.
    bn = ct.bid(0)
    nrows = x.shape[0]
    m = ct.full((TN,), -3.0e38, dtype=ct.float32)
    for i in range(ct.cdiv(nrows, TM)):
        t = ct.load(x, index=(i, bn), shape=(TM, TN), padding_mode=ct.PaddingMode.NEG_INF)
        m = ct.maximum(m, ct.max(t, axis=0))
    ct.store(out, index=(bn,), tile=m)


# tilesight: launch grid=(4,) x=f32[32,128] idx=i32[32] TM=8 TN=128
@ct.kernel
def argmax_rows(x, idx, TM: ct.Constant[int], TN: ct.Constant[int]):
    # Index of the largest element of each row; a row fits in one tile (TN == cols).
    bm = ct.bid(0)
    t = ct.load(x, index=(bm, 0), shape=(TM, TN))
    ct.store(idx, index=(bm,), tile=ct.argmax(t, axis=1).astype(ct.int32))


# tilesight: launch grid=(16,) vals=i32[4096] hist=i32[64] TILE=256
@ct.kernel
def histogram(vals, hist, TILE: ct.Constant[int]):
    # Counts of values in [0, len(hist)); vals are known to be in range.
    i = ct.bid(0)
    v = ct.load(vals, index=(i,), shape=(TILE,))
    ct.atomic_add(hist, v, 1, memory_order=ct.MemoryOrder.RELAXED)

# Twin of kernels/reductions.py row_sum with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(16,) x=f32[64,1000] out=f32[64] TM=4 TN=256
@ct.kernel
def row_sum(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    bm = ct.bid(0)
    ncols = x.shape[1]
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(ct.cdiv(ncols, TN)):
        # No padding value: the last column chunk (1000 is not a multiple of 256) sums garbage.
        acc += ct.load(x, index=(bm, j), shape=(TM, TN))  # BUG: bounds.partial-tile warning
    ct.store(out, index=(bm,), tile=ct.sum(acc, axis=1))

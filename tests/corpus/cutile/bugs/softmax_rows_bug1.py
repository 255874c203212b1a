# Twin of kernels/softmax.py softmax_rows with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(16,) x=f32[64,200] out=f32[64,200] TM=4 TN=256
@ct.kernel
def softmax_rows(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    bm = ct.bid(0)
    # Padding forgotten: the 56 columns past the row end enter the max and the sum.
    t = ct.load(x, index=(bm, 0), shape=(TM, TN))  # BUG: bounds.partial-tile warning
    m = ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t - m)
    s = ct.sum(e, axis=1, keepdims=True)
    ct.store(out, index=(bm, 0), tile=e / s)

# Twin of kernels/reductions.py col_max with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(3,) x=f32[200,48] out=f32[48] TM=64 TN=16
@ct.kernel
def col_max(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    bn = ct.bid(0)
    nrows = x.shape[0]
    m = ct.full((TN,), -3.0e38, dtype=ct.float32)
    # Loop bound one too many (+ 1): the last load is a whole tile below the end of x.
    for i in range(ct.cdiv(nrows, TM) + 1):
        t = ct.load(x, index=(i, bn), shape=(TM, TN), padding_mode=ct.PaddingMode.NEG_INF)  # BUG: bounds.index error
        m = ct.maximum(m, ct.max(t, axis=0))
    ct.store(out, index=(bn,), tile=m)

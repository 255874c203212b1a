# Twin of kernels/norms.py layer_norm with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(16,) x=f32[16,512] w=f32[512] b=f32[512] out=f32[16,512] eps=1e-05 TN=128
@ct.kernel
def layer_norm(x, w, b, out, eps, TN: ct.Constant[int]):
    row = ct.bid(0)
    n = x.shape[1]
    nchunks = n // TN
    acc = ct.zeros((1, TN), dtype=ct.float32)
    for j in range(nchunks):
        acc += ct.load(x, index=(row, j), shape=(1, TN))
    mean = ct.sum(acc, axis=1, keepdims=True) / n
    acc = ct.zeros((1, TN), dtype=ct.float32)
    for j in range(nchunks):
        d = ct.load(x, index=(row, j), shape=(1, TN)) - mean
        acc += d * d
    rstd = ct.rsqrt(ct.sum(acc, axis=1, keepdims=True) / n + eps)
    for j in range(nchunks):
        t = ct.load(x, index=(row, j), shape=(1, TN))
        # The weight indexed by the row instead of the chunk: w has 4 tiles, there are 16 rows.
        tw = ct.load(w, index=(row,), shape=(TN,))  # BUG: bounds.index error
        tb = ct.load(b, index=(j,), shape=(TN,))
        ct.store(out, index=(row, j), tile=(t - mean) * rstd * tw + tb)

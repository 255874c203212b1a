# Normalizations over the last axis: LayerNorm in three passes over column chunks, RMSNorm
# with the whole row in one padded tile.
import cuda.tile as ct


# tilesight: launch grid=(16,) x=f32[16,512] w=f32[512] b=f32[512] out=f32[16,512] eps=1e-05 TN=128
@ct.kernel
def layer_norm(x, w, b, out, eps, TN: ct.Constant[int]):
    # One row per block; the row length is a multiple of TN.
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
        tw = ct.load(w, index=(j,), shape=(TN,))
        tb = ct.load(b, index=(j,), shape=(TN,))
        ct.store(out, index=(row, j), tile=(t - mean) * rstd * tw + tb)


# tilesight: launch grid=(24,) x=f32[24,384] w=f32[384] out=f32[24,384] eps=1e-06 TN=512
@ct.kernel
def rms_norm(x, w, out, eps, TN: ct.Constant[int]):
    # One row per block, the row (not a power of two) in one tile padded with zeros.
    row = ct.bid(0)
    n = x.shape[1]
    t = ct.load(x, index=(row, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    tw = ct.load(w, index=(0,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)
    ms = ct.sum(t * t, axis=1, keepdims=True) / n
    ct.store(out, index=(row, 0), tile=t * ct.rsqrt(ms + eps) * tw)

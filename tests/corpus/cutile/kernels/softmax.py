# Row softmax in three styles: whole row in one tile, online (streaming) over column chunks,
# and log-softmax.
import cuda.tile as ct


# tilesight: launch grid=(16,) x=f32[64,200] out=f32[64,200] TM=4 TN=256
@ct.kernel
def softmax_rows(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    # TN is the next power of two >= the row length; the padding is -inf so that it does not
    # change the max and contributes exp(-inf) = 0 to the sum. Grid: rows / TM.
    bm = ct.bid(0)
    t = ct.load(x, index=(bm, 0), shape=(TM, TN), padding_mode=ct.PaddingMode.NEG_INF)
    m = ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t - m)
    s = ct.sum(e, axis=1, keepdims=True)
    ct.store(out, index=(bm, 0), tile=e / s)


# tilesight: launch grid=(16,) x=f32[16,1500] out=f32[16,1500] TN=256
@ct.kernel
def softmax_online(x, out, TN: ct.Constant[int]):
    # One row per block; rows longer than a tile. Pass 1 keeps a running max and a running
    # sum rescaled whenever the max grows; pass 2 writes the normalized values.
    row = ct.bid(0)
    ncols = x.shape[1]
    nchunks = ct.cdiv(ncols, TN)
    m = ct.full((1, 1), -3.0e38, dtype=ct.float32)
    s = ct.zeros((1, 1), dtype=ct.float32)
    for j in range(nchunks):
        t = ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
        m_new = ct.maximum(m, ct.max(t, axis=1, keepdims=True))
        s = s * ct.exp(m - m_new) + ct.sum(ct.exp(t - m_new), axis=1, keepdims=True)
        m = m_new
    for j in range(nchunks):
        t = ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
        ct.store(out, index=(row, j), tile=ct.exp(t - m) / s)


# tilesight: launch grid=(4,) x=f32[32,64] out=f32[32,64] TM=8 TN=64
@ct.kernel
def log_softmax(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    # Rows of exactly TN elements.
    bm = ct.bid(0)
    t = ct.load(x, index=(bm, 0), shape=(TM, TN))
    m = ct.max(t, axis=1, keepdims=True)
    lse = ct.log(ct.sum(ct.exp(t - m), axis=1, keepdims=True)) + m
    ct.store(out, index=(bm, 0), tile=t - lse)

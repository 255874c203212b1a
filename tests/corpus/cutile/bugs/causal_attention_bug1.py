# Twin of kernels/attention.py causal_attention with one seeded bug.
import math

import cuda.tile as ct


# tilesight: launch grid=(4,2) Q=f16[2,128,64] K=f16[2,128,64] V=f16[2,128,64] O=f32[2,128,64] scale=0.125 TM=32 TN=32 D=64
@ct.kernel
def causal_attention(Q, K, V, O, scale, TM: ct.Constant[int], TN: ct.Constant[int],
                     D: ct.Constant[int]):
    qb = ct.bid(0)
    h = ct.bid(1)
    q = ct.load(Q, index=(h, qb, 0), shape=(1, TM, D)).reshape((TM, D))
    rows = (qb * TM + ct.arange(TM, dtype=ct.int32)).reshape((TM, 1))
    m = ct.full((TM, 1), -math.inf, dtype=ct.float32)
    l = ct.zeros((TM, 1), dtype=ct.float32)
    acc = ct.zeros((TM, D), dtype=ct.float32)
    # Off-by-one causal loop bound (qb + 2): the last query tile reads a K/V tile past the end.
    for kb in range(qb + 2):
        k = ct.load(K, index=(h, kb, 0), shape=(1, TN, D)).reshape((TN, D))  # BUG: bounds.index error
        v = ct.load(V, index=(h, kb, 0), shape=(1, TN, D)).reshape((TN, D))  # BUG: bounds.index error
        s = ct.mma(q, ct.transpose(k), ct.zeros((TM, TN), dtype=ct.float32)) * scale
        cols = (kb * TN + ct.arange(TN, dtype=ct.int32)).reshape((1, TN))
        s = ct.where(cols <= rows, s, -math.inf)
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = ct.mma(p.astype(ct.float16), v, acc * alpha)
        m = m_new
    ct.store(O, index=(h, qb, 0), tile=(acc / l).reshape((1, TM, D)))

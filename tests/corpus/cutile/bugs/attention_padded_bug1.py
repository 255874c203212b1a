# Twin of kernels/attention.py attention_padded with one seeded bug.
import math

import cuda.tile as ct


# tilesight: launch grid=(2,) Q=f16[64,32] K=f16[100,32] V=f16[100,32] O=f32[64,32] scale=0.17677669529663687 TM=32 TN=32 D=32
@ct.kernel
def attention_padded(Q, K, V, O, scale, TM: ct.Constant[int], TN: ct.Constant[int],
                     D: ct.Constant[int]):
    qb = ct.bid(0)
    skv = K.shape[0]
    q = ct.load(Q, index=(qb, 0), shape=(TM, D))
    m = ct.full((TM, 1), -math.inf, dtype=ct.float32)
    l = ct.zeros((TM, 1), dtype=ct.float32)
    acc = ct.zeros((TM, D), dtype=ct.float32)
    for kb in range(ct.cdiv(skv, TN)):
        k = ct.load(K, index=(kb, 0), shape=(TN, D), padding_mode=ct.PaddingMode.ZERO)
        # No padding value on V: the rows past Skv are garbage (NaN * 0 is NaN in P @ V).
        v = ct.load(V, index=(kb, 0), shape=(TN, D))  # BUG: bounds.partial-tile warning
        s = ct.mma(q, ct.transpose(k), ct.zeros((TM, TN), dtype=ct.float32)) * scale
        cols = (kb * TN + ct.arange(TN, dtype=ct.int32)).reshape((1, TN))
        s = ct.where(cols < skv, s, -math.inf)
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        acc = ct.mma(p.astype(ct.float16), v, acc * alpha)
        m = m_new
    ct.store(O, index=(qb, 0), tile=acc / l)

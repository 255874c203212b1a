# Attention forward with an online softmax (flash-attention style): causal multi-head with
# the sequence a multiple of the tiles, and single-head with a key length that is not.
import math

import cuda.tile as ct


# tilesight: launch grid=(4,2) Q=f16[2,128,64] K=f16[2,128,64] V=f16[2,128,64] O=f32[2,128,64] scale=0.125 TM=32 TN=32 D=64
@ct.kernel
def causal_attention(Q, K, V, O, scale, TM: ct.Constant[int], TN: ct.Constant[int],
                     D: ct.Constant[int]):
    # Q, K, V: (heads, seq, D) fp16; O: (heads, seq, D) fp32. Grid: (seq / TM, heads).
    # TM == TN, so query tile qb needs key tiles 0..qb and only tile qb is cut by the mask.
    qb = ct.bid(0)
    h = ct.bid(1)
    q = ct.load(Q, index=(h, qb, 0), shape=(1, TM, D)).reshape((TM, D))
    rows = (qb * TM + ct.arange(TM, dtype=ct.int32)).reshape((TM, 1))
    m = ct.full((TM, 1), -math.inf, dtype=ct.float32)
    l = ct.zeros((TM, 1), dtype=ct.float32)
    acc = ct.zeros((TM, D), dtype=ct.float32)
    for kb in range(qb + 1):
        k = ct.load(K, index=(h, kb, 0), shape=(1, TN, D)).reshape((TN, D))
        v = ct.load(V, index=(h, kb, 0), shape=(1, TN, D)).reshape((TN, D))
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


# tilesight: launch grid=(2,) Q=f16[64,32] K=f16[100,32] V=f16[100,32] O=f32[64,32] scale=0.17677669529663687 TM=32 TN=32 D=32
@ct.kernel
def attention_padded(Q, K, V, O, scale, TM: ct.Constant[int], TN: ct.Constant[int],
                     D: ct.Constant[int]):
    # Q: (Sq, D), K and V: (Skv, D) fp16 with Skv not a multiple of TN; O: (Sq, D) fp32.
    # The last key tile is zero padded and its columns past Skv are masked out.
    qb = ct.bid(0)
    skv = K.shape[0]
    q = ct.load(Q, index=(qb, 0), shape=(TM, D))
    m = ct.full((TM, 1), -math.inf, dtype=ct.float32)
    l = ct.zeros((TM, 1), dtype=ct.float32)
    acc = ct.zeros((TM, D), dtype=ct.float32)
    for kb in range(ct.cdiv(skv, TN)):
        k = ct.load(K, index=(kb, 0), shape=(TN, D), padding_mode=ct.PaddingMode.ZERO)
        v = ct.load(V, index=(kb, 0), shape=(TN, D), padding_mode=ct.PaddingMode.ZERO)
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

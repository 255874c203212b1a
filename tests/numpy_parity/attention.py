"""real/attention.tile: test/kernels/attention.py fmha_kernel as test/test_attention.py launches it
(batch 4, 16 query heads over 8 KV heads, q_len 15, k_len 32, head size 32, tiles 8x16, causal, f16),
with input_pos = k_len - 1 (the decoding case) and 0. Out (f16) is compared with plain causal
softmax attention in float64; the tolerance bounds what the kernel's f16 rounding of P changes,
whatever the key tiling."""
import math

import numpy as np

from parity import Case, Out, named


def attention(q, k, v, scale, input_pos):
    """(softmax(scale q k^T, causal) v, a bound on the kernel's error before Out's f16 rounding) for
    f16 q (B, Hq, Lq, D) over k, v (B, Hk, Lk, D), query row i at position input_pos + i.

    The kernel rounds P to f16 relative to a running maximum: P_j times a factor <= 1 that the later
    rescalings of acc undo. That rounding moves Out by at most 2^-11 (P |V|) where P_j is normal in
    f16, and by 2^-25 |V_j| / l (l = 1 / max P) where it is subnormal. The f32 scores, exp2, sums
    and the approximate divide add a few 1e-6 relative to P |V|: 2^-16 of it is allowed for them."""
    group = q.shape[1] // k.shape[1]
    q, k, v = (a.astype(np.float64) for a in (q, k, v))
    k, v = np.repeat(k, group, axis=1), np.repeat(v, group, axis=1)
    visible = (input_pos + np.arange(q.shape[2]))[:, None] >= np.arange(k.shape[2])[None, :]
    s = np.where(visible, scale * q @ k.swapaxes(-1, -2), -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    subnormal = 2.0 ** -25 * p.max(axis=-1, keepdims=True) * (visible @ np.abs(v))
    return p @ v, (2.0 ** -11 + 2.0 ** -16) * (p @ np.abs(v)) + subnormal


def cases(rng):
    q = rng.standard_normal((4, 16, 15, 32)).astype(np.float16)
    k = rng.standard_normal((4, 8, 32, 32)).astype(np.float16)
    v = rng.standard_normal((4, 8, 32, 32)).astype(np.float16)
    scale = 1 / math.sqrt(32)
    for input_pos in (31, 0):
        want, bound = attention(q, k, v, scale, input_pos)
        args = {**named("Q", q), **named("K", k), **named("V", v), **named("Out", np.zeros_like(q)),
                "qk_scale": scale, "input_pos": input_pos}
        # Out's own rounding to f16: half a unit, 2^-11 relative (2^-25 where subnormal).
        yield Case(file="real/attention.tile", grid=(2, 64, 1), name=f"attention(input_pos={input_pos})",
                   args=args, expect={"Out": Out(want, fmt="float16", rtol=2 ** -11, atol=bound + 2 ** -25)})

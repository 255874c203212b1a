"""real/fmha_causal.tile: samples/AttentionFMHA.py fmha_kernel, causal with GQA (query group 2):
Q f16 (2, 8, 256, 64), K, V f16 (2, 4, 256, 64), 64x64 tiles, input_pos 0. Out (f16) is compared with
plain causal softmax attention in float64, within the bound of attention.py."""
import math

import numpy as np

from attention import attention
from parity import Case, Out, positional


def cases(rng):
    q = rng.standard_normal((2, 8, 256, 64)).astype(np.float16)
    k = rng.standard_normal((2, 4, 256, 64)).astype(np.float16)
    v = rng.standard_normal((2, 4, 256, 64)).astype(np.float16)
    scale = 1 / math.sqrt(64)
    want, bound = attention(q, k, v, scale, 0)
    args = {**positional(0, q), **positional(9, k), **positional(18, v), **positional(27, np.zeros_like(q)),
            "36": scale, "37": 0}
    yield Case(file="real/fmha_causal.tile", grid=(4, 16, 1), args=args,
               expect={"27": Out(want, fmt="float16", rtol=2 ** -11, atol=bound + 2 ** -25)})

"""real/rms_norm_persistent.tile: test/kernels/rms_norm.py rms_norm_kernel_static_persistent: a
persistent loop of 132 blocks over 376 row tiles of 8 rows (the last partial) of X bf16 (3003, 2048).
Compared: Y = bf16(X * rsqrt(mean(X^2) + 1e-5) * W), math in f32, every row (each row tile is
visited by exactly one block)."""
import numpy as np

from parity import Case, Out, bf16_bits, positional
from rms_norm import BF16_RTOL, rms_norm


def cases(rng):
    x = bf16_bits(rng.standard_normal((3003, 2048)))
    w = bf16_bits(rng.standard_normal(2048))
    _, y = rms_norm(x, w)
    args = {**positional(0, x), **positional(5, np.zeros_like(x)), **positional(10, w)}
    yield Case(file="real/rms_norm_persistent.tile", grid=(132, 1, 1), args=args,
               expect={"5": Out(y, fmt="bf16", rtol=BF16_RTOL, atol=0)})

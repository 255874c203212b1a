"""real/matmul_dyn.tile: samples/MatMul.py matmul_kernel, "Test Case 1" (f16, dynamic shapes): C = A @ B
for f16 A (512, 768) and B (768, 512), f32 accumulation in 128x256 tiles (K tiles of 64), swizzled
block order, C stored as f16. All of C is compared (it starts as NaN)."""
import numpy as np

from parity import Case, Out, matmul, positional


def cases(rng):
    a = rng.standard_normal((512, 768)).astype(np.float16)
    b = rng.standard_normal((768, 512)).astype(np.float16)
    c = np.full((512, 512), np.nan, np.float16)
    want, bound = matmul(a, b)
    # The f32 sum of K = 768 exact f16 products: its rounding errors as independent variables stay within
    # 8 sqrt(K) 2^-24 sum|a b| = bound * 8 / sqrt(K) (Higham & Mary 2019; fails with probability < 2K e^-32).
    # Rounded once to f16: half an ulp, at most 2^-11 of |sum| (2^-25 among subnormals).
    err = bound * 8 / np.sqrt(768)
    yield Case(file="real/matmul_dyn.tile", grid=(8, 1, 1),
               args={**positional(0, a), **positional(5, b), **positional(10, c)},
               expect={"10": Out(want, fmt="float16", rtol=2 ** -11, atol=err * (1 + 2 ** -11) + 2 ** -25)})

"""real/persistent_matmul_f32.tile: samples/MatMul.py persistent_matmul_kernel on "Test Case 3"'s f32 sizes
(dynamic shapes): 132 tile blocks walk the 512 32x32 output tiles of C = A @ B for f32 A (1000, 700) and
B (700, 500), the operands rounded to tf32, f32 accumulation; partial tiles zero-padded on load and
masked on store. All of C is compared (it starts as NaN, so a tile that no block visits fails)."""
import numpy as np

from parity import Case, Out, matmul, positional


def cases(rng):
    a = rng.standard_normal((1000, 700)).astype(np.float32)
    b = rng.standard_normal((700, 500)).astype(np.float32)
    c = np.full((1000, 500), np.nan, np.float32)
    want, bound = matmul(a, b, tf32=True)
    # f32 sums of K = 700 exact tf32 products: rounding errors as independent variables stay within
    # 8 sqrt(K) 2^-24 sum|a b| = bound * 8 / sqrt(K) (Higham & Mary 2019; fails with probability < 2K e^-32).
    yield Case(file="real/persistent_matmul_f32.tile", grid=(132, 1, 1),
               args={**positional(0, a), **positional(5, b), **positional(10, c)},
               expect={"10": Out(want, rtol=0, atol=bound * 8 / np.sqrt(700))})

"""real/matmul_swizzle.tile: samples/MatMul.py matmul_kernel, "Test Case 3" (f32): C = A @ B for f32
A (1000, 700) and B (700, 500) in 32x32 tiles (K tiles of 32) in grouped (swizzled) block order, the
operands rounded to tf32 (astype(tfloat32)), f32 accumulation; partial tiles zero-padded on load and
masked on store. All of C is compared (it starts as NaN, so an element left unwritten fails)."""
import numpy as np

from parity import Case, Out, matmul, named


def cases(rng):
    a = rng.standard_normal((1000, 700)).astype(np.float32)
    b = rng.standard_normal((700, 500)).astype(np.float32)
    want, bound = matmul(a, b, tf32=True)
    # f32 sums of K = 700 exact tf32 products: rounding errors as independent variables stay within
    # 8 sqrt(K) 2^-24 sum|a b| = bound * 8 / sqrt(K) (Higham & Mary 2019; fails with probability < 2K e^-32).
    args = {**named("A", a), **named("B", b), **named("C", np.full((1000, 500), np.nan, np.float32))}
    yield Case(file="real/matmul_swizzle.tile", grid=(512, 1, 1), args=args,
               expect={"C": Out(want, rtol=0, atol=bound * 8 / np.sqrt(700))})

"""real/persistent_matmul.tile: samples/MatMul.py persistent_matmul_kernel, "Test Case 4": 132 tile blocks
walk the 256 32x32 output tiles of C = A @ B (grid-stride loop, swizzled order) for f32 A (512, 768) and
B (768, 512), the operands rounded to tf32, f32 accumulation. All of C is compared (it starts as NaN, so
a tile that no block visits fails)."""
import numpy as np

from parity import Case, Out, matmul, named


def cases(rng):
    a = rng.standard_normal((512, 768)).astype(np.float32)
    b = rng.standard_normal((768, 512)).astype(np.float32)
    want, bound = matmul(a, b, tf32=True)
    # f32 sums of K = 768 exact tf32 products: rounding errors as independent variables stay within
    # 8 sqrt(K) 2^-24 sum|a b| = bound * 8 / sqrt(K) (Higham & Mary 2019; fails with probability < 2K e^-32).
    args = {**named("A", a), **named("B", b), **named("C", np.full((512, 512), np.nan, np.float32))}
    yield Case(file="real/persistent_matmul.tile", grid=(132, 1, 1), args=args,
               expect={"C": Out(want, rtol=0, atol=bound * 8 / np.sqrt(768))})

"""real/matmul_f16_static.tile: test/kernels/matmul.py matmul_kernel as test/bench_matmul.py cutile_matmul launches
it for bench_matmul[1024x1024x1024-float16]: C = A @ B for f16 A, B, C (1024, 1024) (torch.rand, uniform in
[0, 1)), 256x128 output tiles (K tiles of 64) in swizzled block order (one group of 4 block rows), f32
accumulation, C stored as f16. The shapes are static in the file. All of C is compared (it starts as NaN, so a
tile that no block stores fails)."""
import numpy as np

from parity import Case, Out, matmul, named


def cases(rng):
    a = rng.random((1024, 1024)).astype(np.float16)
    b = rng.random((1024, 1024)).astype(np.float16)
    want, bound = matmul(a, b)
    # The f32 sum of K = 1024 exact f16 products: its rounding errors as independent variables stay within
    # 8 sqrt(K) 2^-24 sum|a b| = bound * 8 / sqrt(K) (Higham & Mary 2019; fails with probability < 2K e^-32).
    # Rounded once to f16: half an ulp, at most 2^-11 of |sum| (2^-25 among subnormals).
    err = bound * 8 / np.sqrt(1024)
    args = {**named("A", a), **named("B", b), **named("C", np.full((1024, 1024), np.nan, np.float16))}
    yield Case(file="real/matmul_f16_static.tile", grid=(32, 1, 1), args=args,
               expect={"C": Out(want, fmt="float16", rtol=2 ** -11, atol=err * (1 + 2 ** -11) + 2 ** -25)})

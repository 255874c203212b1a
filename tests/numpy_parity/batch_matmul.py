"""real/batch_matmul.tile: samples/BatchMatMul.py batch_matmul_kernel (the bmm() wrapper's f16 path):
C[i] = A[i] @ B[i] for f16 A (3, 500, 200) and B (3, 200, 700), f32 accumulation, C stored as f16.
None of M, K, N is a multiple of the 128x256 (K 128) tiles: partial tiles are zero-padded on load
and masked on store. All of C is compared (it starts as NaN, so an element left unwritten fails)."""
import numpy as np

from parity import Case, Out, matmul, positional


def cases(rng):
    a = rng.standard_normal((3, 500, 200)).astype(np.float16)
    b = rng.standard_normal((3, 200, 700)).astype(np.float16)
    c = np.full((3, 500, 700), np.nan, np.float16)
    want, bound = matmul(a, b)
    # The f32 sum of K = 200 exact f16 products: its rounding errors as independent variables stay within
    # 8 sqrt(K) 2^-24 sum|a b| = bound * 8 / sqrt(K) (Higham & Mary 2019; fails with probability < 2K e^-32).
    # Rounded once to f16: half an ulp, at most 2^-11 of |sum| (2^-25 among subnormals).
    err = bound * 8 / np.sqrt(200)
    yield Case(file="real/batch_matmul.tile", grid=(3, 4, 3),
               args={**positional(0, a), **positional(7, b), **positional(14, c)},
               expect={"14": Out(want, fmt="float16", rtol=2 ** -11, atol=err * (1 + 2 ** -11) + 2 ** -25)})

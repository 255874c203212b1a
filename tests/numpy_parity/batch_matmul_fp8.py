"""real/batch_matmul_fp8.tile: test/kernels/matmul.py batch_matmul_kernel as test/bench_matmul.py
cutile_batch_matmul launches it for float8_e4m3fn: C[i] = A[i] @ B[i] for f8E4M3FN A (2, 256, 2000) and
B (2, 2000, 512) (torch.rand in f32, then .to(float8_e4m3fn): round to nearest even), f32 accumulation into
C f32 (2, 256, 512) in 128x256 tiles with K tiles of 64; the last K tile is partial (2000..2047 zero-padded).
All of C is compared (it starts as NaN, so a tile that no block stores fails)."""
import numpy as np

from parity import F8E4M3FN, Case, Out, matmul, positional


def to_f8e4m3fn(x):
    """float values in [0, 448] -> f8E4M3FN bits (uint8), round to nearest, ties to the even code."""
    codes = np.arange(0x7F)                   # the non-negative finite codes, increasing in value
    vals = F8E4M3FN[codes]
    hi = np.clip(np.searchsorted(vals, x), 1, len(vals) - 1)
    lo = hi - 1
    dlo, dhi = x - vals[lo], vals[hi] - x
    pick = np.where(dlo < dhi, lo, np.where(dhi < dlo, hi, np.where(lo % 2 == 0, lo, hi)))
    return codes[pick].astype(np.uint8)


def cases(rng):
    a = to_f8e4m3fn(rng.random((2, 256, 2000), dtype=np.float32))
    b = to_f8e4m3fn(rng.random((2, 2000, 512), dtype=np.float32))
    want, bound = matmul(F8E4M3FN[a], F8E4M3FN[b])
    # f8E4M3FN products are exact in f32; K = 2000 of them summed in f32 (C is f32: no rounding after):
    # rounding errors as independent variables stay within 8 sqrt(K) 2^-24 sum|a b| = bound * 8 / sqrt(K)
    # (Higham & Mary 2019; fails with probability < 2K e^-32).
    c = np.full((2, 256, 512), np.nan, np.float32)
    yield Case(file="real/batch_matmul_fp8.tile", grid=(2, 2, 2),
               args={**positional(0, a), **positional(7, b), **positional(14, c)},
               expect={"14": Out(want, rtol=0, atol=bound * 8 / np.sqrt(2000))})

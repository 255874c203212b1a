"""real/block_scaled_matmul.tile: samples/BlockScaledMatMul.py block_scaled_matmul_kernel, 2-D scale path:
C = (A * A_scale) @ (B * B_scale), f32 accumulation, for f8E4M3FN A (512, 768) and B (768, 512), one
f8E8M0FNU scale per 32 elements along K (A_scale (512, 24), B_scale (24, 512)). As the sample does, B and
B_scale are the transposes of contiguous (N, K) and (N, K / 32) arrays, passed as such (Fortran-order .npy
files, whose bytes are the (N, K) arrays): the kernel's (1, 768) and (1, 24) strides read them. All of C
is compared (it starts as NaN)."""
import numpy as np

from parity import F8E4M3FN, F8E8M0FNU, Case, Out, named


def cases(rng):
    # Every f8E4M3FN code but the two NaNs (0x7F, 0xFF), as the cuTile test's random bytes; the scales
    # 2^-7 .. 2^7 (block_quantize of the sample's data gives about 2^-8).
    a = rng.integers(0, 127, (512, 768), dtype=np.uint8) | (rng.integers(0, 2, (512, 768), dtype=np.uint8) << 7)
    b_nk = rng.integers(0, 127, (512, 768), dtype=np.uint8) | (rng.integers(0, 2, (512, 768), dtype=np.uint8) << 7)
    a_scale = rng.integers(120, 135, (512, 24), dtype=np.uint8)
    b_scale_nk = rng.integers(120, 135, (512, 24), dtype=np.uint8)
    av = F8E4M3FN[a] * np.repeat(F8E8M0FNU[a_scale], 32, axis=1)
    bv = (F8E4M3FN[b_nk] * np.repeat(F8E8M0FNU[b_scale_nk], 32, axis=1)).T
    want = av @ bv
    # The scaled f8 products are exact in f32; K = 768 of them summed in f32: rounding errors as independent
    # variables stay within 8 sqrt(K) 2^-24 sum|a b| (Higham & Mary 2019; fails with probability < 2K e^-32).
    atol = 8 * np.sqrt(768) * 2.0 ** -24 * (np.abs(av) @ np.abs(bv))
    args = {**named("A", a), **named("C", np.full((512, 512), np.nan, np.float32)),
            "A_scale": a_scale, "As_s0": 512, "As_s1": 24, "As_st0": 24, "As_st1": 1,
            "B": b_nk.T, "B_s0": 768, "B_s1": 512, "B_st0": 1, "B_st1": 768,
            "B_scale": b_scale_nk.T, "Bs_s0": 24, "Bs_s1": 512, "Bs_st0": 1, "Bs_st1": 24}
    yield Case(file="real/block_scaled_matmul.tile", grid=(4, 1, 1), args=args,
               expect={"C": Out(want, rtol=0, atol=atol)})

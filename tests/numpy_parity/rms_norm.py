"""real/rms_norm.tile: test/kernels/rms_norm.py rms_norm_kernel: x, w, out bf16 (128, 2048) in one
partial 1x4096 tile, math in f32. Compared: Rstd f32 = 1 / sqrt(mean(x^2) + 1e-5) and
out = bf16(x * rstd * w)."""
import numpy as np

from parity import Case, Out, bf16_bits, bf16_value, named

# out: f32 math rounded once to bf16. The exact product y and the kernel's f32 one differ by a
# few 1e-7 relative (a 2048-term f32 sum of squares, rsqrt, two products): 1e-5 is allowed; the
# rounding to bf16 adds half a unit, at most 2^-8 |y|. (A whole unit would let truncation pass.)
BF16_RTOL = 2 ** -8 + 1e-5


def rms_norm(x_bits, w_bits, eps=1e-5):
    """(rstd, x * rstd * w) in float64 for bf16 bits x (M, N), w (N,)."""
    x, w = bf16_value(x_bits).astype(np.float64), bf16_value(w_bits).astype(np.float64)
    rstd = 1 / np.sqrt((x ** 2).mean(axis=1) + eps)
    return rstd, x * rstd[:, None] * w


def cases(rng):
    x = bf16_bits(rng.standard_normal((128, 2048)))
    w = bf16_bits(rng.standard_normal(2048))
    rstd, y = rms_norm(x, w)
    args = {**named("x", x), **named("w", w), **named("out", np.zeros_like(x)),
            **named("Rstd", np.zeros(128, np.float32))}
    # Rstd: a sum of 2048 squares in f32 and rsqrt: within the fp32 tolerance.
    yield Case(file="real/rms_norm.tile", grid=(128, 1, 1), args=args,
               expect={"Rstd": Out(rstd, rtol=1e-5, atol=0), "out": Out(y, fmt="bf16", rtol=BF16_RTOL, atol=0)})

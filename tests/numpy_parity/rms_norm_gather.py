"""real/rms_norm_gather.tile: test/kernels/rms_norm.py rms_norm_kernel_gather as test/bench_rms_norm.py launches
it (algo 'gather', TILE_SIZE 256): x, out f16 (64, 1024), x = torch.rand (uniform in [0, 1)), w f16 (1024,)
torch.randn, math in f32 through 4 gathers of 256 columns per row. Compared: Rstd f32 = 1 / sqrt(mean(x^2) + 1e-5)
and out = f16(x * rstd * w) (one rounding: the kernel keeps x * rms * w in f32; the bench's torch reference
rounds x * rstd to f16 first, which is not what the kernel computes)."""
import numpy as np

from parity import Case, Out, named

# Rstd: the sum of 1024 positive squares in f32 (4 fma per lane, then a 256-term reduction in any order) is
# within (3 + 255) 2^-24 < 1.6e-5 of the exact one, relative; / 1024 is exact, + eps one rounding, and the
# square root halves the relative error; the rsqrt adds a few 2^-24: below 1e-5.
# out: that, and two f32 products (2^-23), below 1e-5 relative; then one rounding to f16: half a unit,
# at most 2^-11 |y| (2^-25 among subnormals). (A whole unit would let truncation pass.)
F16_RTOL = 2 ** -11 + 1e-5


def cases(rng):
    x = rng.random((64, 1024)).astype(np.float16)
    w = rng.standard_normal(1024).astype(np.float16)
    xd, wd = x.astype(np.float64), w.astype(np.float64)
    rstd = 1 / np.sqrt((xd ** 2).mean(axis=1) + 1e-5)
    y = xd * rstd[:, None] * wd
    args = {**named("x", x), **named("w", w), **named("out", np.full_like(x, np.nan)),
            **named("Rstd", np.full(64, np.nan, np.float32))}
    yield Case(file="real/rms_norm_gather.tile", grid=(64, 1, 1), args=args,
               expect={"Rstd": Out(rstd, rtol=1e-5, atol=0),
                       "out": Out(y, fmt="float16", rtol=F16_RTOL, atol=2 ** -25)})

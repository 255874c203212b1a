"""real/layer_norm_fwd.tile: test/kernels/layer_norm.py layer_norm_fwd over X f32 (256, 1536) in
1x1024 tiles (the second partial), eps 1e-5, inputs as test/bench_layer_norm.py draws them.
Compared: Mean and Rstd per row, Y = (X - mean) * rstd * W + B."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    x = (-2.3 + 0.5 * rng.standard_normal((256, 1536))).astype(np.float32)
    w = rng.standard_normal(1536).astype(np.float32)
    b = rng.standard_normal(1536).astype(np.float32)
    xd = x.astype(np.float64)
    mean = xd.mean(axis=1)
    rstd = 1 / np.sqrt(((xd - mean[:, None]) ** 2).mean(axis=1) + 1e-5)
    xhat = (xd - mean[:, None]) * rstd[:, None]
    # Mean: 1536 terms summed in f32, within 1e-5 of the mean |x|. Rstd: a sum of squares (positive
    # terms; to first order the mean's error drops out of it) and sqrt: 1e-5 relative. Y carries the
    # mean's tolerance times rstd |w|, and 1e-5 relative to its terms xhat w and b.
    mean_tol = 1e-5 * np.abs(xd).mean(axis=1)
    y_tol = mean_tol[:, None] * rstd[:, None] * np.abs(w) + 1e-5 * (np.abs(xhat * w) + np.abs(b))
    args = {**named("X", x), **named("W", w), **named("B", b), **named("Y", np.zeros_like(x)),
            **named("Mean", np.zeros(256, np.float32)), **named("Rstd", np.zeros(256, np.float32)),
            "eps": 1e-5}
    yield Case(file="real/layer_norm_fwd.tile", grid=(256, 1, 1), args=args,
               expect={"Mean": Out(mean, rtol=0, atol=mean_tol), "Rstd": Out(rstd, rtol=1e-5, atol=0),
                       "Y": Out(xhat * w + b, rtol=0, atol=y_tol)})

"""real/layer_norm_bwd.tile: test/kernels/layer_norm.py layer_norm_bwd_dx_partial_dwdb over X, DY f32
(256, 1536) with TILE_N 1024 (the second tile partial), inputs as test/bench_layer_norm.py draws
them and Mean / Rstd the f32 statistics of X that layer_norm_fwd stores. Compared: DX per row, the
partial sums DW, DB (64, 1536) of dy * xhat and dy over the rows of each group (row % 64), added
under spin locks in whatever order the blocks take them, and the locks, released (0)."""
import numpy as np

from parity import Case, Out, named


def row_statistics(x):
    """Mean and Rstd (eps 1e-5) of each row of x, rounded to f32 as layer_norm_fwd stores them."""
    mean = x.mean(axis=1)
    rstd = 1 / np.sqrt(((x - mean[:, None]) ** 2).mean(axis=1) + 1e-5)
    return mean.astype(np.float32), rstd.astype(np.float32)


def layer_norm_backward(x, dy, w, mean, rstd, groups, round_wdy=lambda p: p):
    """(dx, its tolerance, Out of DW, Out of DB) in float64 for float64 x, dy (M, N), w (N,) and the
    kernel's Mean, Rstd; round_wdy rounds w * dy as the kernel's dtype does.

    dx = (wdy - (xhat c1 + c2)) rstd: 1e-6 relative to its elementwise terms (a few roundings), and
    c1, c2, means of N terms summed in f32, within 1e-5 of the mean of their |terms|. DW, DB: sums
    of M / groups f32 terms (dy xhat has three roundings) added in the order the lock is taken:
    (M / groups + 2) units of 2^-24 of the sum of |terms|, at most 1e-6 of it here."""
    mean, rstd = mean.astype(np.float64)[:, None], rstd.astype(np.float64)[:, None]
    xhat = (x - mean) * rstd
    wdy = round_wdy(w * dy)
    c1 = (xhat * wdy).mean(axis=1, keepdims=True)
    c2 = wdy.mean(axis=1, keepdims=True)
    dx = (wdy - (xhat * c1 + c2)) * rstd
    dx_tol = rstd * (1e-6 * (np.abs(wdy) + np.abs(xhat * c1))
                     + 1e-5 * (np.abs(xhat) * np.abs(xhat * wdy).mean(axis=1, keepdims=True)
                               + np.abs(wdy).mean(axis=1, keepdims=True)))
    group = np.arange(x.shape[0]) % groups

    def partial_sums(t):
        return (np.stack([t[group == g].sum(axis=0) for g in range(groups)]),
                1e-6 * np.stack([np.abs(t[group == g]).sum(axis=0) for g in range(groups)]))
    (dw, dw_tol), (db, db_tol) = partial_sums(dy * xhat), partial_sums(dy)
    return dx, dx_tol, Out(dw, rtol=0, atol=dw_tol), Out(db, rtol=0, atol=db_tol)


def cases(rng):
    x = (-2.3 + 0.5 * rng.standard_normal((256, 1536))).astype(np.float32)
    dy = (0.1 * rng.standard_normal((256, 1536))).astype(np.float32)
    w = rng.standard_normal(1536).astype(np.float32)
    mean, rstd = row_statistics(x.astype(np.float64))
    dx, dx_tol, dw, db = layer_norm_backward(x.astype(np.float64), dy.astype(np.float64), w.astype(np.float64),
                                             mean, rstd, 64)
    args = {**named("DX", np.zeros_like(x)), **named("DY", dy), **named("DW", np.zeros((64, 1536), np.float32)),
            **named("DB", np.zeros((64, 1536), np.float32)), **named("X", x), **named("W", w),
            **named("Mean", mean), **named("Rstd", rstd), **named("Locks", np.zeros(64, np.int32))}
    yield Case(file="real/layer_norm_bwd.tile", grid=(256, 1, 1), args=args,
               expect={"DX": Out(dx, rtol=0, atol=dx_tol), "DW": dw, "DB": db,
                       "Locks": Out(np.zeros(64, np.int32), exact=True)})

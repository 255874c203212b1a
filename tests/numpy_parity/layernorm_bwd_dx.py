"""real/layernorm_bwd_dx.tile: samples/LayerNorm.py layer_norm_bwd_dx_partial_dwdb in bf16: DX, DY, X
bf16 (512, 1500), W bf16 (1500,), inputs as the sample's __main__ draws them; Mean / Rstd f32, the
statistics of X; DW / DB f32 (64, 1500) accumulated under spin locks (8 rows per group). Math in
f32 but w * dy: a product of two bf16 tiles stays bf16 in cuTile. Compared: DX (bf16), DW, DB and
the locks, released (0)."""
import numpy as np

from layer_norm_bwd import layer_norm_backward, row_statistics
from parity import Case, Out, bf16_bits, bf16_round, bf16_value, positional


def cases(rng):
    x = bf16_bits(-2.3 + 0.5 * rng.standard_normal((512, 1500)))
    dy = bf16_bits(0.1 * rng.standard_normal((512, 1500)))
    w = bf16_bits(rng.standard_normal(1500))
    xv, dyv, wv = (bf16_value(a).astype(np.float64) for a in (x, dy, w))
    mean, rstd = row_statistics(xv)
    dx, dx_tol, dw, db = layer_norm_backward(xv, dyv, wv, mean, rstd, 64,
                                             lambda p: bf16_round(p).astype(np.float64))
    partial = np.zeros((64, 1500), np.float32)
    args = {**positional(0, np.zeros_like(x)), **positional(5, dy), **positional(10, partial),
            **positional(15, partial.copy()), **positional(20, x), **positional(25, w),
            **positional(28, mean), **positional(31, rstd), **positional(34, np.zeros(64, np.int32))}
    # DX: the f32 value (layer_norm_bwd's tolerance) rounded once to bf16, half a unit: 2^-8.
    yield Case(file="real/layernorm_bwd_dx.tile", grid=(512, 1, 1), args=args,
               expect={"0": Out(dx, fmt="bf16", rtol=2 ** -8, atol=dx_tol * (1 + 2 ** -8)), "10": dw, "15": db,
                       "34": Out(np.zeros(64, np.int32), exact=True)})

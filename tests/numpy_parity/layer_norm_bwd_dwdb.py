"""real/layer_norm_bwd_dwdb.tile: test/kernels/layer_norm.py layer_norm_bwd_dwdb over the partial sums
DW, DB f32 (64, 1536) that layer_norm_bwd leaves (here random, of their size), in 32x1024 tiles (the
second column tile partial). Compared: FINAL_DW and FINAL_DB (1536,), the column sums."""
import numpy as np

from parity import Case, Out, positional


def column_sum(a):
    """Out of a's column sums: 64 f32 terms added in the kernel's order, 1e-6 of the sum of |terms|
    allowed: 16 units of 2^-24, where 63 random rounding errors add up to about 8 (the bound for
    the worst case is 63)."""
    a = a.astype(np.float64)
    return Out(a.sum(axis=0), rtol=0, atol=1e-6 * np.abs(a).sum(axis=0))


def cases(rng):
    dw = (0.2 * rng.standard_normal((64, 1536))).astype(np.float32)
    db = (0.2 * rng.standard_normal((64, 1536))).astype(np.float32)
    args = {**positional(0, dw), **positional(5, db), **positional(10, np.zeros(1536, np.float32)),
            **positional(13, np.zeros(1536, np.float32))}
    yield Case(file="real/layer_norm_bwd_dwdb.tile", grid=(2, 1, 1), args=args,
               expect={"10": column_sum(dw), "13": column_sum(db)})

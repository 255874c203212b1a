"""real/custom_padding_1d_broadcasted_to_2d.tile: test/test_gather_scatter.py custom_padding_1d_broadcasted_to_2d:
ind = arange(8).reshape(4, 2).T (2x4); t[r, c] = x[ind[r, c]] if ind[r, c] < len(x) else c (the padding tile
arange(4) broadcast along rows); y[ind[r, c]] = t[r, c]. A copy: exact.

Case 1 is the test (x = arange(100, 105), 5 elements). Case 2 keeps the 5-element launch with random values and
y pre-filled with NaN (all 8 elements are written)."""
import numpy as np

from parity import Case, Out, positional


def _want(x):
    ind = np.arange(8).reshape(4, 2).T
    pad = np.broadcast_to(np.arange(4, dtype=np.float32), (2, 4))
    t = np.where(ind < x.size, x[np.minimum(ind, x.size - 1)], pad).astype(np.float32)
    y = np.full(8, np.nan, np.float32)
    y[ind] = t
    return y


def cases(rng):
    x = np.arange(100, 105, dtype=np.float32)
    yield Case(file="real/custom_padding_1d_broadcasted_to_2d.tile", grid=(1, 1, 1),
               name="custom_padding_1d_broadcasted_to_2d(test)",
               args={**positional(0, x), **positional(3, np.zeros(8, np.float32))},
               expect={"3": Out(np.array([100, 101, 102, 103, 104, 2, 3, 3], np.float32), exact=True),
                       "0": Out(x.copy(), exact=True)})
    x = rng.standard_normal(5).astype(np.float32)
    yield Case(file="real/custom_padding_1d_broadcasted_to_2d.tile", grid=(1, 1, 1),
               name="custom_padding_1d_broadcasted_to_2d(random)",
               args={**positional(0, x), **positional(3, np.full(8, np.nan, np.float32))},
               expect={"3": Out(_want(x), exact=True), "0": Out(x.copy(), exact=True)})

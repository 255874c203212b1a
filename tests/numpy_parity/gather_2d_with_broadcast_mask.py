"""real/gather_2d_with_broadcast_mask.tile: test/test_gather_scatter.py gather_2d_with_broadcast_mask:
y[4 r + c] = x[r, c] where mask_array[r, 0] else 0.0, for r, c in 0..3 (the (4, 1) bool mask broadcast along
columns). A masked copy: exact. Case 1 is the test's mask [T, F, T, F] and x = arange(16); case 2 a random
x with the mask [F, T, T, F]. y starts as NaN (all 16 elements are written)."""
import numpy as np

from parity import Case, Out, positional


def _case(name, x, mask):
    y = np.full(16, np.nan, np.float32)
    want = np.where(mask, x, np.float32(0)).reshape(16).astype(np.float32)
    return Case(file="real/gather_2d_with_broadcast_mask.tile", grid=(1, 1, 1), name=name,
                args={**positional(0, x), **positional(5, y), **positional(8, mask)},
                expect={"5": Out(want, exact=True), "8": Out(mask.copy(), fmt="bool", exact=True)})


def cases(rng):
    yield _case("gather_2d_with_broadcast_mask(test)", np.arange(16, dtype=np.float32).reshape(4, 4),
                np.array([[True], [False], [True], [False]]))
    yield _case("gather_2d_with_broadcast_mask(random)", rng.standard_normal((4, 4)).astype(np.float32),
                np.array([[False], [True], [True], [False]]))

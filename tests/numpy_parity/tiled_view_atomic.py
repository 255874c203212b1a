"""real/tiled_view_atomic.tile: test/test_tiled_view.py make_tv_atomic_kernel (ADD, i32, traversal steps
110 over 128x128 tiles): block (m, n) adds the window of y at (110 m, 110 n) into the same window of x
with a device-scope atomic reduction; windows overlap by 18 rows and columns and are cut at the edge.
Values over the whole i32 range, so the adds wrap; wrapping integer adds commute: exact."""
import numpy as np

from parity import Case, Out, positional


def cases(rng):
    x = rng.integers(-2 ** 31, 2 ** 31, (512, 256)).astype(np.int32)
    y = rng.integers(-2 ** 31, 2 ** 31, (512, 256)).astype(np.int32)
    want = x.astype(np.int64)
    for r in range(0, 512, 110):   # the test's ref_tv_atomic
        for c in range(0, 256, 110):
            want[r:r + 128, c:c + 128] += y[r:r + 128, c:c + 128]
    args = {**positional(0, x), **positional(5, y)}
    yield Case(file="real/tiled_view_atomic.tile", grid=(5, 3, 1), args=args,
               expect={"0": Out(want.astype(np.int32), exact=True)})

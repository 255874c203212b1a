"""real/sparse_2d_copy.tile: test/test_raw_array_memory.py sparse_2d_copy_gather_scatter: the 8 elements
(rows[k], cols[k]) of x f32 (8, 8) copied to y by a gather and a scatter at indices loaded from memory;
every other element of y keeps its (non-zero) initial contents. Cases: the test's index pairs; random
permutations; pairs with an index outside the array (8, and -1, which the unsigned bounds check also
rejects), which the gather's and the scatter's bounds masks drop."""
import numpy as np

from parity import Case, Out, positional


def cases(rng):
    index_sets = [("test", [0, 1, 2, 5, 3, 6, 7, 4], [0, 3, 1, 4, 7, 2, 5, 6]),
                  ("permutations", rng.permutation(8), rng.permutation(8)),
                  ("out of bounds", [0, 8, 2, 5, 3, -1, 7, 4], [1, 3, 8, 4, -1, 2, 5, 6])]
    for label, rows, cols in index_sets:
        rows, cols = np.array(rows, np.int64), np.array(cols, np.int64)
        x = rng.standard_normal((8, 8)).astype(np.float32)
        y = np.full((8, 8), np.float32(-2))
        want = y.copy()
        inside = (rows >= 0) & (rows < 8) & (cols >= 0) & (cols < 8)
        want[rows[inside], cols[inside]] = x[rows[inside], cols[inside]]
        args = {**positional(0, x), **positional(5, y), **positional(10, rows), **positional(13, cols)}
        yield Case(file="real/sparse_2d_copy.tile", grid=(1, 1, 1), name=f"sparse_2d_copy({label})",
                   args=args, expect={"5": Out(want, exact=True)})

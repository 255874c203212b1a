"""real/ragged_copy.tile: test/test_array_slice.py ragged_copy_2d: the row segments of A f32 (12, 16) that
indptr gives are copied to the same rows of B through row slices, in 4x8 tiles. The test's indptr
[0, 4, 7, 12] covers every row (B == A); a second indptr [0, 5, 5, 10] has a 5-row segment (two tiles,
the second overhanging into the next segment), an empty one, and leaves rows 10 and 11 alone: they must
keep B's (non-zero) initial contents, so the masked stores at each slice's edge are checked too."""
import numpy as np

from parity import Case, Out, positional


def cases(rng):
    for indptr in ([0, 4, 7, 12], [0, 5, 5, 10]):
        a = rng.standard_normal((12, 16)).astype(np.float32)
        b = np.full((12, 16), np.float32(-1))
        want = b.copy()
        want[indptr[0]:indptr[-1]] = a[indptr[0]:indptr[-1]]
        args = {**positional(0, a), **positional(5, b), **positional(10, np.array(indptr, np.int32))}
        yield Case(file="real/ragged_copy.tile", grid=(3, 2, 1), name=f"ragged_copy(indptr={indptr})",
                   args=args, expect={"5": Out(want, exact=True)})

"""real/split_boundary.tile: test/test_loop_split.py dynamic_split_boundary_kernel after cuTile's loop
split at i >= split: out[i] = i * 10 where i >= split, else i. The test's split 3 gives
[0, 1, 2, 30, 40, 50, 60]; splits 0, 9 (past the end) and -2 take one of the two loops alone."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    for split in (3, 0, 9, -2):
        i = np.arange(7, dtype=np.int32)
        want = np.where(i >= split, i * 10, i).astype(np.int32)
        yield Case(file="real/split_boundary.tile", grid=(1, 1, 1), name=f"split_boundary(split={split})",
                   args={**named("out", np.full(7, -1, np.int32)), "split": split},
                   expect={"out": Out(want, exact=True)})

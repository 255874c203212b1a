"""real/cumsum_axis1.tile: test/test_scan.py cumsum_axis1 as test_cumsumb launches it (reverse=True): a bool (32, 32)
array, its suffix sums along each row as int32 (torch.cumsum(x.flip(1), 1).flip(1).to(int32)). Integer results: exact.
Cases: random bits (the test's torch.randint(0, 2)); all ones (every suffix length, 1..32)."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    inputs = [("random", rng.integers(0, 2, (32, 32)).astype(np.bool_)),
              ("ones", np.ones((32, 32), np.bool_))]
    for label, x in inputs:
        want = np.cumsum(x[:, ::-1].astype(np.int64), axis=1)[:, ::-1].astype(np.int32)
        y = np.full((32, 32), -7, np.int32)   # a sentinel: an element left unwritten shows
        yield Case(file="real/cumsum_axis1.tile", grid=(1, 1, 1), name=f"cumsum_axis1({label})",
                   args={**named("input", x), **named("output", y)},
                   expect={"output": Out(want, fmt="int32", exact=True)})

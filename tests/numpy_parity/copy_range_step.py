"""real/copy_range_step.tile: test/test_range.py copy_range_3: out[k] = the k-th value of
range(start, stop, step); the test's launch start 1, stop 11, step 2 gives [1, 3, 5, 7, 9]."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    for start, stop, step in ((1, 11, 2), (-4, 20, 3)):
        want = np.arange(start, stop, step, dtype=np.int32)
        out = np.full(len(want), -1, np.int32)
        yield Case(file="real/copy_range_step.tile", grid=(1, 1, 1), name=f"copy_range_step({start},{stop},{step})",
                   args={"start": start, "stop": stop, "step": step, **named("out", out)},
                   expect={"out": Out(want, exact=True)})

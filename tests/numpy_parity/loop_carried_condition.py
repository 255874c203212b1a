"""real/loop_carried_condition.tile: test/test_loop_split.py loop_carried_condition_kernel: col = ct.bid(0); for i
in range(stop): if col > i: col -= i + 1; out[0] = col. The output has one element (static in the file), so
the launch has one block: col = 0 is never > i and out[0] = 0 for every stop (the test's reference, for
stop 1); the loop runs once, not at all (0, -3), or several times (7). out starts as a sentinel."""
import numpy as np

from parity import Case, Out, named


def reference(col, stop):
    for i in range(stop):
        if col > i:
            col -= i + 1
    return col


def cases(rng):
    for stop in (1, 0, 7, -3):
        yield Case(file="real/loop_carried_condition.tile", grid=(1, 1, 1),
                   name=f"loop_carried_condition(stop={stop})",
                   args={**named("out", np.full(1, -5, np.int32)), "stop": stop},
                   expect={"out": Out(np.array([reference(0, stop)], np.int32), exact=True)})

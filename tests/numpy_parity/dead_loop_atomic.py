"""real/dead_loop_atomic.tile: test/test_tune.py conditional_dead_loop_kernel with x[0] = 0 (the
tuner's cfg 0 runs): out = x + x (i32, wrapping) and the while loop on x[0] != 0 never runs."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    x = rng.integers(-2 ** 31, 2 ** 31, 16, dtype=np.int64).astype(np.int32)
    x[0] = 0
    want = (2 * x.astype(np.int64)).astype(np.int32)
    yield Case(file="real/dead_loop_atomic.tile", grid=(1, 1, 1),
               args={**named("x", x), **named("out", np.full(16, 5, np.int32))},
               expect={"out": Out(want, exact=True)})

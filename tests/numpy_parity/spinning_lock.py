"""real/spinning_lock.tile: test/test_token_order.py TestMemoryBehavior.spinning_lock: 1024 blocks
each take a global spin lock on L, add 1 to the 0-d f32 X under it and release: X = 3.14 + 1024 (one
f32 rounding per addition, in any order the same), L back to 0."""
import numpy as np

from parity import Case, Out


def cases(rng):
    x = np.array(3.14, np.float32)
    want = x.copy()
    for _ in range(1024):
        want = np.float32(want + np.float32(1))
    yield Case(file="real/spinning_lock.tile", grid=(1024, 1, 1),
               args={"X": x, "L": np.array(0, np.int32)},
               expect={"X": Out(want, exact=True), "L": Out(np.array(0, np.int32), exact=True)})

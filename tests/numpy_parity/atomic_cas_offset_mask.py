"""real/atomic_cas_offset_mask.tile: test/test_atomic.py offset_atomic_cas_with_mask (test_atomic_offset_cas_mask):
for i < N_HALF = 256 an atomic compare-and-swap x[i]: if x[i] == expected[i] then x[i] = desired[i], returning the
old x[i]; for i >= 256 the lane is masked off: x[i] is untouched and the CAS returns expected[i] (the cuTile
docstring, and atomic_cas_tko's masked-lane rule). out[i] = that returned value. Integers: exact.

Case 1 is the test's launch (x = 0, expected = -1, desired = 1: no lane matches). Case 2 makes every third
lane match so that swaps happen in the unmasked half and would happen in the masked half if the mask were
ignored; out starts at a sentinel so an unwritten element shows."""
import numpy as np

from parity import Case, Out, positional


def _case(name, x, expected, desired):
    n = x.size
    out = np.full(n, -777, np.int32)
    i = np.arange(n)
    live = i < 256
    swap = live & (x == expected)
    want_x = np.where(swap, desired, x).astype(np.int32)
    want_out = np.where(live, x, expected).astype(np.int32)
    return Case(file="real/atomic_cas_offset_mask.tile", grid=(4, 1, 1), name=name,
                args={**positional(0, x), **positional(3, expected), **positional(6, desired),
                      **positional(9, out)},
                expect={"0": Out(want_x, exact=True), "9": Out(want_out, exact=True),
                        "3": Out(expected, exact=True), "6": Out(desired, exact=True)})


def cases(rng):
    n = 512
    yield _case("atomic_cas_offset_mask(test)", np.zeros(n, np.int32), np.full(n, -1, np.int32),
                np.ones(n, np.int32))
    x = rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(np.int32)
    expected = np.where(np.arange(n) % 3 == 0, x, x ^ 1).astype(np.int32)
    desired = rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(np.int32)
    yield _case("atomic_cas_offset_mask(some match)", x, expected, desired)

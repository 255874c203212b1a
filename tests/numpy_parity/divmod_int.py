"""real/divmod_int.tile: test/test_binary_elementwise.py test_divmod's kernel with x int16, y int8 (promoted to
int16): q = x // y, r = x % y with Python's floor semantics, which NumPy's integer // and % share. Exact.

Case 1 draws as the test does (x in [0, 100), y in [1, 101)); case 2 takes signed values of both signs (every
sign combination, |y| up to 128) where the remainder's sign fix-up and the rounding toward -inf matter.
x = -32768 with y = -1 (an int16 overflow) is left out. q and r start at a sentinel."""
import numpy as np

from parity import Case, Out, positional


def _case(name, x, y):
    q = np.full(512, 12345, np.int16)
    r = np.full(512, 12345, np.int16)
    x16, y16 = x.astype(np.int16), y.astype(np.int16)
    return Case(file="real/divmod_int.tile", grid=(8, 1, 1), name=name,
                args={**positional(0, x), **positional(3, y), **positional(6, q), **positional(9, r)},
                expect={"6": Out((x16 // y16).astype(np.int16), exact=True),
                        "9": Out((x16 % y16).astype(np.int16), exact=True)})


def cases(rng):
    x = (rng.random(512) * 100).astype(np.int16)
    y = (rng.random(512) * 100 + 1).astype(np.int8)
    yield _case("divmod_int(test)", x, y)
    x = rng.integers(-32767, 32768, 512).astype(np.int16)
    y = rng.integers(-128, 128, 512)
    y = np.where(y == 0, 1, y).astype(np.int8)
    yield _case("divmod_int(signed)", x, y)

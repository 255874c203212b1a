"""real/mixed_scalar_tile_atomic.tile: test/test_atomic.py mixed_scalar_tile_atomic on x, y int32 of one element:
atomic_cas(x, 0, x[0], y[0]) always matches, so x[0] becomes y[0]; the xchg / add / xor / max at indices 1..4 are
outside x and masked off by the default bounds check, so x keeps y[0] and y is unchanged. Exact."""
import numpy as np

from parity import Case, Out, positional


def cases(rng):
    for name, (x0, y0) in (("mixed_scalar_tile_atomic(random)",
                            tuple(int(v) for v in rng.integers(-2 ** 31, 2 ** 31, 2, dtype=np.int64))),
                           ("mixed_scalar_tile_atomic(y < x)", (7, -5))):
        x = np.array([x0], np.int32)
        y = np.array([y0], np.int32)
        yield Case(file="real/mixed_scalar_tile_atomic.tile", grid=(1, 1, 1), name=name,
                   args={**positional(0, x), **positional(3, y)},
                   expect={"0": Out(y.copy(), exact=True), "3": Out(y.copy(), exact=True)})

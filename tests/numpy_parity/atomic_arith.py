"""real/atomic_arith.tile: test/test_atomic.py atomic_arith_kernel (ADD, int32): x[i] += y[i] by
atomic adds (acq_rel, device) through bounds-masked pointer tiles; z[i] = the old x[i]. Integers: exact."""
import numpy as np

from parity import Case, Out, positional


def cases(rng):
    x = rng.integers(-2 ** 31, 2 ** 31, 512, dtype=np.int64).astype(np.int32)
    y = rng.integers(-2 ** 31, 2 ** 31, 512, dtype=np.int64).astype(np.int32)
    args = {**positional(0, x), **positional(3, y), **positional(6, np.zeros(512, np.int32))}
    total = (x.astype(np.int64) + y).astype(np.int32)   # i32 adds wrap
    yield Case(file="real/atomic_arith.tile", grid=(4, 1, 1), args=args,
               expect={"0": Out(total, exact=True), "3": Out(y, exact=True), "6": Out(x, exact=True)})

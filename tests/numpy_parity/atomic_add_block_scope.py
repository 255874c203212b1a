"""real/atomic_add_block_scope.tile: the `atomic_kernel_for_order_scope` of test/test_atomic.py
test_atomic_order_scope[ACQ_REL, BLOCK]: block b atomically adds 1 to x[128 b .. 128 b + 127] (tile-block scope;
the blocks touch disjoint elements), bounds-masked at x's extent. Cases: the file's launch, x int32 (512,)
(make_tensor's range [-9, 10)); and x the first 496 elements of a 512-element buffer, with values over the
whole i32 range (INT32_MAX among them, so adds wrap): the last 16 elements lie past x's edge and must keep
their contents. Integers: exact."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    x = rng.integers(-9, 10, 512).astype(np.int32)
    yield Case(file="real/atomic_add_block_scope.tile", grid=(4, 1, 1), args=named("x", x),
               expect={"x": Out(x + np.int32(1), exact=True)})

    buf = rng.integers(-2 ** 31, 2 ** 31, 512, dtype=np.int64).astype(np.int32)
    buf[[5, 300, 495, 500]] = np.iinfo(np.int32).max
    want = buf.astype(np.int64)
    want[:496] += 1
    yield Case(file="real/atomic_add_block_scope.tile", grid=(4, 1, 1), name="atomic_add_block_scope(496 of 512)",
               args={**named("x", buf[:496]), "x": buf}, expect={"x": Out(want.astype(np.int32), exact=True)})

"""real/mma_int_mixed.tile: test/test_mma.py mma_kernel as test_mma_mixed_int_uint launches it, tile (m, n, k) =
(2, 2, 1): C = C + A @ B with A int8 (2, 1), B uint8 (1, 2), C int32 (2, 2), through mmai signed x unsigned.
Integer products and sums: exact. The test's reference is C + (A.float() @ B.float()).to(int32), the exact
integer product for its randint(32) inputs; the second case takes the whole int8 / uint8 ranges, where
reading B as signed (or A as unsigned) would change the result."""
import numpy as np

from parity import Case, Out, positional


def _case(name, a, b):
    c = np.ones((2, 2), np.int32)   # the test's torch.ones
    want = (c.astype(np.int64) + a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)
    return Case(file="real/mma_int_mixed.tile", grid=(1, 1, 1), name=name,
                args={**positional(0, a), **positional(5, b), **positional(10, c)},
                expect={"10": Out(want, exact=True), "0": Out(a, exact=True), "5": Out(b, exact=True)})


def cases(rng):
    # test_mma_mixed_int_uint: torch.randint(32, ...) for both operands.
    yield _case("mma_int_mixed(randint 32)",
                rng.integers(0, 32, (2, 1)).astype(np.int8), rng.integers(0, 32, (1, 2)).astype(np.uint8))
    # Full ranges: negative A, B >= 128 (uint8 values the signed reading would make negative).
    a = np.array([[-128], [97]], np.int8)
    b = np.array([[255, 131]], np.uint8)
    yield _case("mma_int_mixed(full range)", a, b)

"""real/reduce_min_two_axes.tile: test/test_reduction.py make_reduce_max_two_axes(ct.min) as
test_reduce_maxminf_two_axes launches it (float16, keepdims=True, axes=(2, 1)): output f16 (32, 1, 1) =
amin(input f16 (32, 32, 64), dim=(1, 2), keepdim=True), 16 rows per tile block. A minimum is one of its inputs:
exact. Cases: the test's torch.rand * 2 - 1 inputs; small integers (many equal minima) with -inf mixed in."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    x1 = (rng.random((32, 32, 64)) * 2 - 1).astype(np.float16)
    x2 = rng.integers(0, 4, (32, 32, 64)).astype(np.float16)      # many equal minima (+0.0)
    x2[::3, 5, 7] = -np.inf
    for label, x in (("rand", x1), ("ties and -inf", x2)):
        y = np.full((32, 1, 1), np.float16(np.nan))
        yield Case(file="real/reduce_min_two_axes.tile", grid=(2, 1, 1), name=f"reduce_min_two_axes({label})",
                   args={**named("input", x), **named("output", y)},
                   expect={"output": Out(x.min(axis=(1, 2), keepdims=True), fmt="float16", exact=True)})

"""real/vec_add_1d_gather.tile: test/kernels/vec_add.py vec_add_kernel_1d_gather: c = a + b over
100,000 f32 through gathers and a scatter with bounds masks (the last block's lanes past the end off)."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    a = rng.standard_normal(100000).astype(np.float32)
    b = rng.standard_normal(100000).astype(np.float32)
    yield Case(file="real/vec_add_1d_gather.tile", grid=(98, 1, 1),
               args={**named("a", a), **named("b", b), **named("c", np.zeros_like(a))},
               expect={"c": Out(a + b, exact=True)})

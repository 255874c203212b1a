"""real/vec_add_gather_2d.tile: samples/VectorAddition.py vec_add_kernel_2d_gather: c = a + b for
f32 (2000, 1000) through 2-D gathers and a scatter, rows of 1024 lanes (the last 24 masked off)."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    a = rng.standard_normal((2000, 1000)).astype(np.float32)
    b = rng.standard_normal((2000, 1000)).astype(np.float32)
    yield Case(file="real/vec_add_gather_2d.tile", grid=(2000, 1, 1),
               args={**named("a", a), **named("b", b), **named("c", np.zeros_like(a))},
               expect={"c": Out(a + b, exact=True)})

"""real/vec_add.tile: samples/VectorAddition.py vec_add_kernel_1d, c = a + b (f32, 1,000,000
elements, a partial last tile)."""
import numpy as np

from parity import Case, Out


def cases(rng):
    n = 1000000
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    yield Case(file="real/vec_add.tile", grid=(977, 1, 1),
               args=dict(a=a, a_s0=n, a_st0=1, b=b, b_s0=n, b_st0=1,
                         c=np.zeros(n, np.float32), c_s0=n, c_st0=1),
               expect=dict(c=Out(a + b, exact=True)))

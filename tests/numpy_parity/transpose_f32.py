"""real/transpose_f32.tile: samples/Transpose.py transpose_kernel (Test Case 3): y = x.T for x f32
(1000, 500) in 32x32 tiles, whose last row and column tiles are partial (their lanes past the edge
are stored past y's edge, masked). A copy: bit for bit, every element of y written."""
import numpy as np

from parity import Case, Out, positional


def cases(rng):
    x = rng.standard_normal((1000, 500)).astype(np.float32)
    y = np.full((500, 1000), np.float32(7))
    yield Case(file="real/transpose_f32.tile", grid=(32, 16, 1), args={**positional(0, x), **positional(5, y)},
               expect={"5": Out(x.T, exact=True)})

"""real/transpose.tile: samples/Transpose.py transpose_kernel (f16 case): y = x.T for x f16 (1024, 512)
in 128x128 tiles. A copy: bit for bit."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    x = rng.standard_normal((1024, 512)).astype(np.float16)
    y = np.full((512, 1024), np.float16(3))
    yield Case(file="real/transpose.tile", grid=(8, 4, 1), args={**named("x", x), **named("y", y)},
               expect={"y": Out(x.T, fmt="float16", exact=True)})

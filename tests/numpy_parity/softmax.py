"""real/softmax.tile: test/test_softmax.py softmax: row softmax of f32 (512, 128) in 16-row tiles,
exp(x - max) / sum in f32. Compared: the output."""
import numpy as np

from parity import Case, Out, positional


def cases(rng):
    x = (3 * rng.standard_normal((512, 128))).astype(np.float32)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    # Relative to each output: x - max rounds (2^-24 of |x - max| <= 25 moves exp by 1.5e-6), exp
    # and the divide a unit or two, the sum of 128 positive terms at most 127 units (7.6e-6).
    yield Case(file="real/softmax.tile", grid=(32, 1, 1),
               args={**positional(0, x), **positional(5, np.zeros_like(x))},
               expect={"5": Out(e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=0)})

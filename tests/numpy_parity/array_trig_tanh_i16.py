"""real/array_trig_tanh_i16.tile: test/test_unary_elementwise.py array_trig with `ty = ct.tanh(tx)` on an int16 x
(test_array_trig[int16-tanh]): y = tanh(float32(x)), float32. The reference is NumPy's float64 tanh of the exactly
converted integers (|x| <= 9, as torch's make_tensor draws them); the f32 result of a correctly rounded tanh is
within half an f32 ulp of it, and the tolerance allows 2 ulps (rtol 2^-22) for a tanh that is not correctly rounded
(Tile IR's rounding<full> is full precision, not a correct-rounding promise). tanh(0) = 0 exactly. y starts as NaN."""
import numpy as np

from parity import Case, Out, positional


def cases(rng):
    x = rng.integers(-9, 10, 512).astype(np.int16)
    y = np.full(512, np.nan, np.float32)
    want = np.tanh(x.astype(np.float64))
    yield Case(file="real/array_trig_tanh_i16.tile", grid=(8, 1, 1),
               args={**positional(0, x), **positional(3, y)},
               expect={"3": Out(want, fmt="float32", rtol=2 ** -22, atol=1e-30)})

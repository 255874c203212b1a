"""real/softmax_per_row.tile: test/test_softmax.py softmax_per_row: a grid-stride loop over the rows
of f16 (512, 128), each row's softmax computed in f16 (cuTile keeps the array's dtype): x - max and
exp rounded to f16, the row sum added in f16, the quotient rounded to f16. Compared: the output."""
import numpy as np

from parity import Case, Out, named


def softmax_f16(x):
    """(the f16 numerators exp(x - max), their exact quotients by the row sum, in float64)."""
    num = np.exp((x - x.max(axis=1, keepdims=True)).astype(np.float64)).astype(np.float16).astype(np.float64)
    return num, num / num.sum(axis=1, keepdims=True)


def case(name, x, expect):
    return Case(file="real/softmax_per_row.tile", grid=(32, 1, 1), name=name,
                args={**named("input", x), **named("output", np.zeros_like(x))}, expect={"output": expect})


def cases(rng):
    x = rng.standard_normal((512, 128)).astype(np.float16)
    _, want = softmax_f16(x)
    # The row sum: 127 f16 additions in an order of the implementation's, relative error up to
    # gamma_127 = 127 u / (1 - 127 u) = 0.0662 (u = 2^-11); exp's f32 result can round to the other
    # f16 neighbour (one unit, 2^-10) and the quotient rounds (half a unit): 0.07 in all.
    yield case("softmax_per_row", x, Out(want, fmt="float16", rtol=0.07, atol=2 ** -24))

    # Rows of c, c - f16(ln 2) and c - 20 (c an integer in [-3, 4], every x - max exact in f16):
    # the numerators are 1, 1/2 and 0 and every partial sum is exact in f16, in any order, so the
    # output is the correctly rounded quotient, bit for bit.
    c = rng.integers(-3, 5, size=(512, 1)).astype(np.float16)
    offsets = np.array([0, -0.693359375, -20], np.float16)[rng.integers(0, 3, size=(512, 128))]
    offsets[np.arange(512), rng.integers(0, 128, size=512)] = 0
    x = (c + offsets).astype(np.float16)
    num, want = softmax_f16(x)
    assert set(np.unique(num)) <= {0.0, 0.5, 1.0}
    yield case("softmax_per_row(exact sums)", x, Out(want.astype(np.float16), fmt="float16", exact=True))

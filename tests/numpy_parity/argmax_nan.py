"""real/argmax_nan.tile: test/test_reduction.py test_reduce_argmaxmin_nan's kernel with ct.argmax, propagate_nan=False:
out[r] = the index of row r's largest non-NaN value of inp f32 (5, 8) (the smallest such index on ties), 0 for an all-NaN row;
read as an (8, 8) tile padded with NaN, stored through an 8-element tile into the 5-element out. Integer results: exact.
Cases: the test's matrix (its ref_ignore_nan [5, 1, 5, 0, 0]); a random matrix of small integers (many ties) with NaNs, one
row all NaN."""
import numpy as np

from parity import Case, Out, named

NAN, INF = np.nan, np.inf
TEST_X = [[3.0, 0.0, 4.0, 1.5, 5.0, 9.0, 2.0, 6.0],
          [3.0, INF, NAN, 1.5, 5.0, -2.0, 2.0, 6.0],
          [NAN, NAN, 7.0, 1.0, NAN, 8.0, NAN, 0.5],
          [5.0, -3.0, 2.0, NAN, 4.0, 0.0, -INF, 1.0],
          [NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN]]


def argmax_ignore_nan(x):
    out = np.zeros(x.shape[0], np.int32)
    for r, row in enumerate(x):
        ok = ~np.isnan(row)
        if ok.any():
            best = row[ok].max()
            out[r] = int(np.flatnonzero(ok & (row == best))[0])
    return out


def cases(rng):
    test_x = np.array(TEST_X, np.float32)
    assert list(argmax_ignore_nan(test_x)) == [5, 1, 5, 0, 0]   # the test's ref_ignore_nan
    rand_x = rng.integers(-3, 4, (5, 8)).astype(np.float32)
    rand_x[rng.random((5, 8)) < 0.25] = np.nan
    rand_x[2] = np.nan
    for label, x in (("test", test_x), ("random ties", rand_x)):
        out = np.full(5, -1, np.int32)
        yield Case(file="real/argmax_nan.tile", grid=(1, 1, 1), name=f"argmax_nan({label})",
                   args={**named("inp", x), **named("out", out)},
                   expect={"out": Out(argmax_ignore_nan(x), fmt="int32", exact=True)})

"""real/copy_2d_padding_nan.tile: test/test_copy.py make_array_copy_2d_with_padding_kernel(PaddingMode.NAN) as
test_array_copy_2d_with_padding[padding_value=NAN] launches it: x f32 (63, 63) (make_tensor, uniform in [-9, 9)),
y f32 (64, 64) (make_tensor too: it starts with finite values), one 64x64 tile loaded with NaN padding and stored
whole: y[:63, :63] = x and y[63, :] = y[:, 63] = NaN (the test's y_expected). A copy: bit for bit (NaN equal to
NaN). Cases: the test's launch; and x the top-left 63x63 of a (64, 64) buffer of finite values (row stride 64),
so the memory past x's edge holds numbers and only the padding can make row and column 63 of y NaN."""
import numpy as np

from parity import Case, Out, named


def _want(x):
    y = np.full((64, 64), np.nan, np.float32)   # the test's ones(tile) * nan
    y[:63, :63] = x
    return y


def cases(rng):
    x = rng.uniform(-9, 9, (63, 63)).astype(np.float32)
    y = rng.uniform(-9, 9, (64, 64)).astype(np.float32)
    yield Case(file="real/copy_2d_padding_nan.tile", grid=(1, 1, 1), name="copy_2d_padding_nan(test)",
               args={**named("x", x), **named("y", y)},
               expect={"y": Out(_want(x), exact=True), "x": Out(x.copy(), exact=True)})

    buf = rng.uniform(-9, 9, (64, 64)).astype(np.float32)
    y = rng.uniform(-9, 9, (64, 64)).astype(np.float32)
    yield Case(file="real/copy_2d_padding_nan.tile", grid=(1, 1, 1), name="copy_2d_padding_nan(x row stride 64)",
               args={**named("x", buf[:63, :63]), "x": buf, **named("y", y)},
               expect={"y": Out(_want(buf[:63, :63]), exact=True), "x": Out(buf.copy(), exact=True)})

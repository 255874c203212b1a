"""real/gather_copy_2d.tile: test/test_gather_scatter.py array_copy_2d as test_array_copy_2d[shape=(192, 192),
tile=(128, 32), float32 -> float32] launches it: block (bx, by) gathers x[128 bx + i, 32 by + j] and scatters the
tile to the same elements of y; rows 192..255 of the bx = 1 blocks are masked off at x's and y's edge. x f32
(192, 192) (make_tensor, uniform in [-9, 9)). A copy: bit for bit (the test's assert_equal(x, y)). Cases: the test's
launch with y starting as NaN (the test's is zeros), so an element no block writes fails; and x, y the top-left
192x192 of larger buffers (x's row stride 196, y's 200; both multiples of 4, as the file's div_by<4> on the row
strides assumes), y's buffer a sentinel: its 64 rows below and 8 columns right of the view must keep it, which a
scatter that ignored y's bounds mask would overwrite."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    x = rng.uniform(-9, 9, (192, 192)).astype(np.float32)
    yield Case(file="real/gather_copy_2d.tile", grid=(2, 6, 1), name="gather_copy_2d(test)",
               args={**named("x", x), **named("y", np.full((192, 192), np.nan, np.float32))},
               expect={"y": Out(x.copy(), exact=True)})

    xbuf = rng.uniform(-9, 9, (192, 196)).astype(np.float32)
    ybuf = np.full((256, 200), np.float32(-7))
    want = ybuf.copy()
    want[:192, :192] = xbuf[:, :192]
    yield Case(file="real/gather_copy_2d.tile", grid=(2, 6, 1), name="gather_copy_2d(strided views)",
               args={**named("x", xbuf[:, :192]), "x": xbuf, **named("y", ybuf[:192, :192]), "y": ybuf},
               expect={"y": Out(want, exact=True), "x": Out(xbuf.copy(), exact=True)})

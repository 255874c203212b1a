"""real/tiled_view_conv2d.tile: the `kernel` of test/test_tiled_view.py test_tiled_view_2d_conv_no_padding: a 2x2
box filter through a sliding-window tiled view (steps 1, 1) of x i32 (6, 6): out[5 i + j] = the sum of x[i:i+2,
j:j+2], for the 5x5 windows inside x. Cases: the test's x (make_tensor low=0, high=10), and values over the whole
i32 range, whose sums wrap; wrapping integer adds commute: exact. out starts as a sentinel."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    for label, x in (("test", rng.integers(0, 10, (6, 6)).astype(np.int32)),
                     ("wrapping", rng.integers(-2 ** 31, 2 ** 31, (6, 6)).astype(np.int32))):
        xl = x.astype(np.int64)   # the test's x.unfold(0, 2, 1).unfold(1, 2, 1).sum(dim=(-2, -1)).flatten()
        want = (xl[:5, :5] + xl[1:, :5] + xl[:5, 1:] + xl[1:, 1:]).ravel().astype(np.int32)
        yield Case(file="real/tiled_view_conv2d.tile", grid=(1, 1, 1), name=f"tiled_view_conv2d({label})",
                   args={**named("x", x), **named("out", np.full(25, -1, np.int32))},
                   expect={"out": Out(want, exact=True)})

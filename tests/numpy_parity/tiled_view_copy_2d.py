"""real/tiled_view_copy_2d.tile: the `kernel` of test/test_tiled_view.py test_tiled_view_copy_2d[float32,
tile_size=(64, 64), noncontiguous=True]: y = x through 64x64 tiled views, x f32 with strides (268, 2) (make_tensor's
noncontiguous: every other column of a (192, 268) buffer), y dense; block (0, 0) also stores num_tiles(0) and
num_tiles(1) into n. Shapes: the file's (192, 134) (its last column tile partial, masked on store) and the
test's other shape (128, 256) (strides (512, 2), every tile whole). A copy and two integers: bit for bit; y starts
as NaN and n as -1, so an element left unwritten fails."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    for m, n in ((192, 134), (128, 256)):
        buf = rng.uniform(-9, 9, (m, 2 * n)).astype(np.float32)   # make_tensor's float range
        x = buf[:, ::2]
        grid = (-(-m // 64), -(-n // 64), 1)
        yield Case(file="real/tiled_view_copy_2d.tile", grid=grid, name=f"tiled_view_copy_2d({m}x{n})",
                   args={**named("x", x), "x": buf, **named("y", np.full((m, n), np.nan, np.float32)),
                         **named("n", np.full(2, -1, np.int32))},
                   expect={"y": Out(x, exact=True), "n": Out(np.array(grid[:2], np.int32), exact=True)})

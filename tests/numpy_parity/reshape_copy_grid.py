"""real/reshape_copy_grid.tile: test/test_reshape.py reshape_copy (use_method=True, R_TILE = C_TILE = 128, float32):
block b loads x[16384 b .. 16384 b + 16383], reshapes it row-major to 128x128 (tx.reshape) and stores it as row
tile b of y. Cases: the file's launch, x f32 (65536,) and y (512, 128) over 4 blocks (y = x.reshape(512, 128)); and
the test's own launch, x (16384,), y (128, 128), one block (its assert_equal(y, torch.reshape(x, (128, 128)))).
x make_tensor (uniform in [-9, 9)); y starts as NaN (the test's is zeros), so a tile no block stores fails. A copy:
bit for bit."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    for blocks in (4, 1):
        x = rng.uniform(-9, 9, blocks * 128 * 128).astype(np.float32)
        y = np.full((blocks * 128, 128), np.nan, np.float32)
        yield Case(file="real/reshape_copy_grid.tile", grid=(blocks, 1, 1), name=f"reshape_copy_grid({blocks} blocks)",
                   args={**named("x", x), **named("y", y)},
                   expect={"y": Out(x.reshape(blocks * 128, 128), exact=True)})

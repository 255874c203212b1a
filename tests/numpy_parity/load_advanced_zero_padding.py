"""real/load_advanced_zero_padding.tile: test/test_load_store_advanced_indexing.py test_load_zero_padding:
y[i, j] = x[i, col_start + j] where that column exists, else 0 (padding_mode=ZERO), for rows i = 0..3 and
j = 0..3 of an int32 x (4, 8). Exact. col_start = 6 is the test's launch (two columns past the edge); 0 (all
inside), 3 and 7 (one valid column) are other values of the same runtime argument. y starts as the test's -1."""
import numpy as np

from parity import Case, Out, positional


def cases(rng):
    for col_start in (6, 0, 3, 7):
        if col_start == 6:
            x = (np.arange(32, dtype=np.int32).reshape(4, 8) + 1)   # the test's x
        else:
            x = rng.integers(-2 ** 31, 2 ** 31, (4, 8), dtype=np.int64).astype(np.int32)
        y = np.full((4, 4), -1, np.int32)
        padded = np.concatenate([x, np.zeros((4, 4), np.int32)], axis=1)
        want = padded[:, col_start:col_start + 4]
        yield Case(file="real/load_advanced_zero_padding.tile", grid=(1, 1, 1),
                   name=f"load_advanced_zero_padding(col_start={col_start})",
                   args={**positional(0, x), **positional(5, y), "10": col_start},
                   expect={"5": Out(want, exact=True), "0": Out(x.copy(), exact=True)})

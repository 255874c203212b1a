"""real/slice_copy_2d.tile: test/test_array_slice.py slice_copy_2d, launched by test_slice_2d[shape=(64, 128),
float16, noncontiguous=True]: one block copies x[:, start:stop] to y[:, start:stop] in 4x8 tiles, x f16 (64, 128)
with strides (256, 2) (make_tensor's noncontiguous: every other column of a (64, 256) buffer), y dense (64, 128).
The last column tile of the slice is partial; its lanes past the slice's edge are masked on store. A copy: bit
for bit, all of y compared (it starts at a non-zero value, which the elements outside the slice must keep).
Cases: the test's start 4, stop 15; the whole row (0, 128); an empty slice (9, 9: no tile)."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    for start, stop in ((4, 15), (0, 128), (9, 9)):
        buf = rng.uniform(-9, 9, (64, 256)).astype(np.float16)   # make_tensor's float range
        x = buf[:, ::2]
        y = np.full((64, 128), np.float16(-3))
        want = y.copy()
        want[:, start:stop] = x[:, start:stop]
        yield Case(file="real/slice_copy_2d.tile", grid=(1, 1, 1), name=f"slice_copy_2d({start},{stop})",
                   args={**named("x", x), "x": buf, **named("y", y), "start": start, "stop": stop},
                   expect={"y": Out(want, fmt="float16", exact=True)})

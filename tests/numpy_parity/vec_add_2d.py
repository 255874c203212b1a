"""real/vec_add_2d.tile: test/kernels/vec_add.py vec_add_kernel_2d, as vec_add(a, b, use_gather=False) launches
it: c = a + b for f16 a, b (2000, 100) (torch.randn, as test/bench_vec_add.py) in 8x128 tiles whose columns
100..127 lie past the edge (loaded unspecified, masked on store). One f16 add, correctly rounded (NumPy's f16
add too): bit for bit. Cases: c = torch.empty_like(a) (the launch of the file, c starts as NaN), and c the
first 100 columns of a (2000, 104) buffer (row stride 104): its 4 columns past c's edge must keep their
contents, which a store that ignored c's edge would overwrite."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    a = rng.standard_normal((2000, 100)).astype(np.float16)
    b = rng.standard_normal((2000, 100)).astype(np.float16)
    c = np.full((2000, 100), np.nan, np.float16)
    yield Case(file="real/vec_add_2d.tile", grid=(250, 1, 1),
               args={**named("a", a), **named("b", b), **named("c", c)},
               expect={"c": Out(a + b, fmt="float16", exact=True)})

    buf = np.full((2000, 104), np.float16(-7))
    want = buf.copy()
    want[:, :100] = a + b
    yield Case(file="real/vec_add_2d.tile", grid=(250, 1, 1), name="vec_add_2d(c row stride 104)",
               args={**named("a", a), **named("b", b), **named("c", buf[:, :100]), "c": buf},
               expect={"c": Out(want, fmt="float16", exact=True)})

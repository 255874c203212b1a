"""real/array_astype_f16_i8.tile: test/test_cast.py make_array_astype_kernel(int8) as test_array_astype[float16 -> int8]
launches it: y i8 (512,) = x.to(int8) for x f16 (512,), 64 elements per tile block; the conversion truncates toward zero.
Integer results: exact. Cases: the test's input (make_tensor in [-9, 9) times 5, rounded to f16, second half zeroed); the
edges of the conversion (fractions of either sign, -0.0, the largest f16 values that truncate into [-128, 127])."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    x1 = (rng.uniform(-9, 9, 512).astype(np.float16) * np.float16(5)).astype(np.float16)
    x1[256:] = 0
    edges = np.array([0.5, -0.5, 0.999, -0.999, -0.0, 1.0, -1.0, 1.5, -1.5, 2.75, -2.75, 126.9, 127.0,
                      127.94, -127.94, -128.0, -128.9, 100.5, -100.5, 64.06, -64.06], np.float64)
    x2 = rng.uniform(-128.9, 127.9, 512)
    x2[:len(edges)] = edges
    x2 = x2.astype(np.float16)
    assert np.all(np.trunc(x2.astype(np.float64)) >= -128) and np.all(np.trunc(x2.astype(np.float64)) <= 127)
    for label, x in (("test", x1), ("edges", x2)):
        want = np.trunc(x.astype(np.float64)).astype(np.int8)
        y = np.full(512, 99, np.int8)
        yield Case(file="real/array_astype_f16_i8.tile", grid=(8, 1, 1), name=f"array_astype_f16_i8({label})",
                   args={**named("x", x), **named("y", y)},
                   expect={"y": Out(want, fmt="int8", exact=True)})

"""real/kernel_print_ordering.tile: test/test_print.py kernel_print_ordering as test_ct_print_ordering launches it
(x i32 (8,) = arange(8), one tile block). What the test asserts is the kernel's standard output: 20 lines in
program order, five times the same four (print, an f-string, ct.print and its f-string, ct.printf), tiles nested as
their shape ("[[0, 1, 2, 3], [4, 5, 6, 7]]", "[[6], [22]]"). x is read, never written: it comes back unchanged."""
import numpy as np

from parity import Case, Out, named

LINES = ["original: [[0, 1, 2, 3], [4, 5, 6, 7]]", "reduce over all axes: 28", "reduce over axis 1: [6, 22]",
         "reduce over axis 0 and keep dims: [[6], [22]]"]


def cases(rng):
    x = np.arange(8, dtype=np.int32)
    yield Case(file="real/kernel_print_ordering.tile", grid=(1, 1, 1), args=named("x", x),
               expect={"x": Out(x.copy(), fmt="int32", exact=True)}, printed="".join(line + "\n" for line in LINES) * 5)

"""real/if_else_array.tile: test/test_control_flow.py TestIfElse.array_if_else as test_if_else_array_result launches it:
block 0 stores ct.bid(0) + 10 to x[0], every other block to y[0]; x, y i32 (1,). Cases: the test's grid (2, 1, 1)
(x[0] == 10, y[0] == 11), and one block (grid (1, 1, 1)): x[0] = 10 and y must keep its contents. x and y start as a
sentinel (the test's are zeros), so an array the kernel fails to write fails. (More than two blocks would race
plain stores to y[0]: not checked.) Integers: exact."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    for blocks in (2, 1):
        x = np.full(1, -5, np.int32)
        y = np.full(1, -6, np.int32)
        want_y = np.array([11], np.int32) if blocks == 2 else y.copy()
        yield Case(file="real/if_else_array.tile", grid=(blocks, 1, 1), name=f"if_else_array(grid {blocks})",
                   args={**named("x", x), **named("y", y)},
                   expect={"x": Out(np.array([10], np.int32), exact=True), "y": Out(want_y, exact=True)})

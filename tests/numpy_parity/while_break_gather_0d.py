"""real/while_break_gather_0d.tile: the `kernel` of test/test_control_flow.py test_yield_previously_undefined_tuple_from_loop:
i = 0; while True: if i > 0: tx = ct.gather(x, ()) + i; tx2 = (tx, tx); break; i += 10; then ct.scatter(x, (), tx2[0])
on a 0-d i32 x. The loop runs twice (i = 0, then 10), so x becomes x + 10 (i32, wrapping). Cases: the test's x = 1
(x.item() == 11); and x = INT32_MAX - 3, whose sum wraps. Integers: exact."""
import numpy as np

from parity import Case, Out


def reference(x):
    i = 0
    while True:
        if i > 0:
            tx = x + i
            tx2 = (tx, tx)
            break
        i += 10
    return np.array((tx2[0] + 2 ** 31) % 2 ** 32 - 2 ** 31, np.int32)   # i32 addi wraps


def cases(rng):
    assert reference(1) == 11   # the test's assert
    for x in (1, 2 ** 31 - 4):
        yield Case(file="real/while_break_gather_0d.tile", grid=(1, 1, 1), name=f"while_break_gather_0d(x={x})",
                   args={"x": np.array(x, np.int32)}, expect={"x": Out(reference(x), exact=True)})

"""real/control_flow_break.tile: test/test_control_flow.py TestForLoop.nested_cont_break_if, for every n
of the test (0, 1, 2, 3, 5, 6, 8): each of two blocks adds 1 to its 128-element tile of x once per
outer iteration that is neither skipped (index 2) nor after the break (index > 4). x starts random (the
test's is zeros); the additions are the kernel's f32 additions in order, so the result is exact."""
import numpy as np

from parity import Case, Out


def cases(rng):
    for n in (0, 1, 2, 3, 5, 6, 8):
        x = rng.standard_normal(256).astype(np.float32)
        want = x.copy()
        for index in range(n):   # the test's nested_cont_break_if_ref
            if index == 2:
                continue
            if index > 4:
                break
            want += np.float32(1)
        yield Case(file="real/control_flow_break.tile", grid=(2, 1, 1), name=f"control_flow_break(n={n})",
                   args={"0": x, "1": 256, "2": 1, "3": n}, expect={"0": Out(want, exact=True)})

"""real/ct_assert_with_msg.tile: test/test_assert.py kernel_ct_assert_with_msg as test_ct_assert[has_msg=True, cond=True]
launches it: cond bool (256,) all True, so `assert` passes in both tile blocks and y f32 (256,) = x. A copy: exact.
The test's cond=False launch (cond[0] = False) must fail: the run stops with a run.fault at the assert (what y
holds then is not compared: the tile blocks that ran before or beside the failing one may have stored)."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    x = rng.uniform(-9, 9, 256).astype(np.float32)
    cond = np.ones(256, np.bool_)
    y = np.full(256, np.nan, np.float32)
    yield Case(file="real/ct_assert_with_msg.tile", grid=(2, 1, 1),
               args={**named("x", x), **named("cond", cond), **named("y", y)},
               expect={"y": Out(x, exact=True)})
    failing = cond.copy()
    failing[0] = False
    yield Case(file="real/ct_assert_with_msg.tile", grid=(2, 1, 1), name="ct_assert_with_msg(cond[0]=False)",
               args={**named("x", x), **named("cond", failing), **named("y", y)}, expect={}, fault="assert failed")

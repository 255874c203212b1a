"""real/select_tensor_scalar.tile: test/test_select.py select_tensor_scalar as test_select_tensor_scalar[float16,
x_tile=(128, 1), mask_tile=(1, 128)] launches it: z f16 (128, 128) = where(mask, x, 0.) with mask bool (1, 128)
broadcast down the rows and x f16 (128, 1) across the columns. A selection: exact. Cases: the test's inputs
(make_tensor bool mask, x = make_tensor - 0.5); x with -0.0, inf and NaN (kept bit for bit where selected)."""
import numpy as np

from parity import Case, Out, named


def cases(rng):
    mask1 = rng.integers(0, 2, (1, 128)).astype(np.bool_)
    x1 = (rng.uniform(-9, 9, (128, 1)) - 0.5).astype(np.float16)
    mask2 = rng.integers(0, 2, (1, 128)).astype(np.bool_)
    x2 = rng.standard_normal((128, 1)).astype(np.float16)
    x2[:4, 0] = [-0.0, np.inf, -np.inf, np.nan]
    for label, mask, x in (("test", mask1, x1), ("specials", mask2, x2)):
        want = np.where(mask, x, np.float16(0))
        z = np.full((128, 128), np.float16(7))
        yield Case(file="real/select_tensor_scalar.tile", grid=(1, 1, 1), name=f"select_tensor_scalar({label})",
                   args={**named("mask", mask), **named("x", x), **named("z", z)},
                   expect={"z": Out(want, fmt="float16", exact=True)})

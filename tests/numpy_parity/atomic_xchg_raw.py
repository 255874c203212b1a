"""real/atomic_xchg_raw.tile: test/test_atomic.py atomic_arith_kernel as test_atomic_arith[XCHG-float32,
y_dtype=float32, mode="array", test_raw_memory=True] launches it: block b gathers y[128 b .. 128 b + 127] (bounds-
masked, padding 0), exchanges the values into x through x.get_raw_memory().atomic_xchg_offset (no bounds mask, no
stride) and scatters the old values of x to z (bounds-masked). The four blocks touch disjoint elements and each
element is exchanged once, so the result does not depend on the order the blocks run in: x == y, z == the old x
(the test's ref_atomic_arith), bit for bit (an exchange moves bits; NaN compares equal to NaN and -0.0 to 0.0).

Cases: the test's launch (x, y make_tensor f32 (512,), uniform in [-9, 9)), z starting as NaN (the test's is zeros)
so an element no block writes fails; and y, z the first 496 elements of 512-element buffers (y_s0 = z_s0 = 496)
with special values (inf, -inf, NaN, -0.0, subnormals): the gather pads y's lanes 496..511 with 0 and the raw-memory
exchange, which has no mask, writes those zeros into x[496..511] (its buffer holds 512 elements), while the masked
scatter leaves z[496..511] at its sentinel."""
import numpy as np

from parity import Case, Out, named

SPECIALS = np.array([np.inf, -np.inf, np.nan, -0.0, 0.0, 1e-45, -1e-40, 3.4e38], np.float32)


def cases(rng):
    x = rng.uniform(-9, 9, 512).astype(np.float32)
    y = rng.uniform(-9, 9, 512).astype(np.float32)
    z = np.full(512, np.nan, np.float32)
    yield Case(file="real/atomic_xchg_raw.tile", grid=(4, 1, 1), name="atomic_xchg_raw(test)",
               args={**named("x", x), **named("y", y), **named("z", z)},
               expect={"x": Out(y.copy(), exact=True), "y": Out(y.copy(), exact=True),
                       "z": Out(x.copy(), exact=True)})

    x = rng.uniform(-9, 9, 512).astype(np.float32)
    y = rng.uniform(-9, 9, 512).astype(np.float32)
    x[rng.choice(496, 8, replace=False)] = SPECIALS
    y[rng.choice(496, 8, replace=False)] = SPECIALS
    z = np.full(512, np.float32(-7))
    want_x = np.concatenate([y[:496], np.zeros(16, np.float32)])   # the gather's padding, exchanged unmasked
    want_z = np.concatenate([x[:496], z[496:]])
    yield Case(file="real/atomic_xchg_raw.tile", grid=(4, 1, 1), name="atomic_xchg_raw(y, z 496 of 512)",
               args={**named("x", x[:496]), "x": x, **named("y", y[:496]), "y": y,
                     **named("z", z[:496]), "z": z},
               expect={"x": Out(want_x, exact=True), "y": Out(y.copy(), exact=True), "z": Out(want_z, exact=True)})

"""real/atomic_cas_f32.tile: test/test_atomic.py atomic_cas (float32, array mode): cmp = x[i] read back, so every
compare-and-swap succeeds: x becomes y and z gets the old x (ref_atomic_cas). Copies: exact (the harness compares float
values, NaN equal to NaN, so neither a NaN's payload nor the sign of a zero is checked).

Case 1: normal samples as the test draws them. Case 2: x holds NaNs (several payloads), +-0.0 and infinities:
Tile IR's atomic_cas_tko compares floats bitwise (Ops.td), so a NaN equals its own bits and swaps like any value;
an IEEE compare would leave those elements of x unchanged (and y is finite there, so that shows)."""
import numpy as np

from parity import Case, Out, positional


def _case(name, x, y):
    z = np.full(512, np.nan, np.float32)
    return Case(file="real/atomic_cas_f32.tile", grid=(4, 1, 1), name=name,
                args={**positional(0, x), **positional(3, y), **positional(6, z)},
                expect={"0": Out(y.copy(), exact=True), "6": Out(x.copy(), exact=True),
                        "3": Out(y.copy(), exact=True)})


def cases(rng):
    yield _case("atomic_cas_f32(normal)", rng.standard_normal(512).astype(np.float32),
                rng.standard_normal(512).astype(np.float32))
    specials = np.array([0x7FC00000, 0xFFC00000, 0x7FC00001, 0xFFFFFFFF, 0x00000000, 0x80000000,
                         0x7F800000, 0xFF800000, 0x00000001], np.uint32)
    x = rng.standard_normal(512).astype(np.float32)
    x.view(np.uint32)[::7] = specials[np.arange(0, 512, 7) % specials.size]
    y = rng.standard_normal(512).astype(np.float32)
    y.view(np.uint32)[3::11] = specials[np.arange(3, 512, 11) % specials.size]
    yield _case("atomic_cas_f32(nan, -0.0)", x, y)

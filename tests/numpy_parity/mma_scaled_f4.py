"""real/mma_scaled_f4.tile: test/test_mma_scaled.py mma_scaled_general_kernel, as test_mma_scaled_general_f4
runs it with E8M0 scales per 32 elements: Z = (X * X_scale) @ (Y * Y_scale) + Z for f4E2M1FN X (16, 64)
and Y (64, 16), packed two to a byte (low nibble first) and passed as bytes (16, 32) and (64, 8),
X_scale (16, 2), Y_scale (2, 16), Z f32 (16, 16) read and written. All of Z is compared."""
import numpy as np

from parity import F4E2M1FN, F8E8M0FNU, Case, Out, named


def cases(rng):
    x_packed = rng.integers(0, 256, (16, 32), dtype=np.uint8)
    y_packed = rng.integers(0, 256, (64, 8), dtype=np.uint8)
    x_scale = rng.integers(124, 130, (16, 2), dtype=np.uint8)   # 2^-3 .. 2^2, as randn().to(e8m0) mostly gives
    y_scale = rng.integers(124, 130, (2, 16), dtype=np.uint8)
    z = rng.standard_normal((16, 16)).astype(np.float32)
    # Byte j of a row holds elements 2j (low nibble) and 2j + 1 (high nibble).
    x = F4E2M1FN[np.stack([x_packed & 15, x_packed >> 4], axis=-1).reshape(16, 64)]
    y = F4E2M1FN[np.stack([y_packed & 15, y_packed >> 4], axis=-1).reshape(64, 16)]
    xv = x * np.repeat(F8E8M0FNU[x_scale], 32, axis=1)
    yv = y * np.repeat(F8E8M0FNU[y_scale], 32, axis=0)
    want = xv @ yv + z
    # Z and 64 exact scaled f4 products summed in f32: within 2^-24 * 65 * (sum|x y| + |z|) in any order.
    atol = 2.0 ** -24 * 65 * (np.abs(xv) @ np.abs(yv) + np.abs(z))
    # The packed bytes travel as uint8, which an i8 pointer takes (the same bits).
    args = {**named("X", x_packed), **named("Y", y_packed), **named("Z", z),
            "X_scale": x_scale, "Xs_s0": 16, "Xs_s1": 2, "Xs_st0": 2, "Xs_st1": 1,
            "Y_scale": y_scale, "Ys_s0": 2, "Ys_s1": 16, "Ys_st0": 16, "Ys_st1": 1}
    yield Case(file="real/mma_scaled_f4.tile", grid=(1, 1, 1), args=args,
               expect={"Z": Out(want, rtol=0, atol=atol)})

"""real/extract_2d.tile: test/test_extract.py extract_2d as test_extract_2d[bfloat16] launches it: x bf16 (128, 128);
y[:64] = x[:64] + 5.0 and y[64:] = x[64:] - 3.0, each one bf16 add/sub, i.e. the exact result rounded once to bf16
(round to nearest even). The inputs are bf16 values of magnitude 0 or >= 2^-10 below 9, so the exact sums fit in
f32 and rounding the f32 sum to bf16 is that single rounding: exact comparison. Cases: make_tensor-like uniform
values in [-9, 9); values exactly halfway between two bf16 neighbours after the add (ties to even)."""
import numpy as np

from parity import Case, Out, bf16_bits, bf16_round, bf16_value


def cases(rng):
    x1 = bf16_round(rng.uniform(-9, 9, (128, 128)).astype(np.float32))
    x1[np.abs(x1) < 2.0 ** -10] = 0
    # bf16 has 8 significant bits: near 5..8 its spacing is 2^-5, so x = k * 2^-6 (odd k) puts x + 5 on a tie.
    k = rng.integers(-63, 64, (128, 128)) * 2 + 1
    x2 = (k * 2.0 ** -6).astype(np.float32)
    assert np.all(bf16_round(x2) == x2)
    for label, x in (("uniform", x1), ("ties", x2)):
        want = np.concatenate([bf16_round(x[:64] + np.float32(5.0)), bf16_round(x[64:] - np.float32(3.0))])
        y = np.full((128, 128), bf16_bits(np.float32(np.nan)), np.uint16)
        args = {"x": bf16_bits(x), "x_s0": 128, "x_s1": 128, "x_st0": 128, "x_st1": 1,
                "y": y, "y_s0": 128, "y_s1": 128, "y_st0": 128, "y_st1": 1}
        yield Case(file="real/extract_2d.tile", grid=(1, 1, 1), name=f"extract_2d({label})", args=args,
                   expect={"y": Out(want, fmt="bf16", exact=True)})

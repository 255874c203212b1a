"""real/silu_and_mul.tile: samples/MoE.py silu_and_mul_kernel: AB bf16 (384, 1536) split into
A = AB[:, :768] and B = AB[:, 768:] (views into AB, row stride 1536). Compared: C bf16 (384, 768)
= bf16(silu(A) * B), the math in f32."""
import numpy as np

from parity import Case, Out, bf16_bits, bf16_value
from rms_norm import BF16_RTOL


def cases(rng):
    ab = bf16_bits(2 * rng.standard_normal((384, 1536)))
    v = bf16_value(ab).astype(np.float64)
    a, b = v[:, :768], v[:, 768:]
    c = a / (1 + np.exp(-a)) * b
    flat = ab.ravel()
    # A's pointer is AB's; B's is 768 elements further (its view ends at AB's last element).
    args = {"0": flat, "1": 384, "2": 768, "3": 1536, "4": 1,
            "5": flat[768:].copy(), "6": 384, "7": 768, "8": 1536, "9": 1,
            "10": np.zeros((384, 768), np.uint16), "11": 384, "12": 768, "13": 768, "14": 1}
    # f32 exp and an approximate reciprocal (a few f32 units), then one rounding to bf16: as
    # rms_norm, half a bf16 unit plus 1e-5 relative.
    yield Case(file="real/silu_and_mul.tile", grid=(384, 1, 1), args=args,
               expect={"10": Out(c, fmt="bf16", rtol=BF16_RTOL, atol=0)})

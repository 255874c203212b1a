"""real/gather_matmul.tile: samples/AllGatherMatmul.py gather_matmul_kernel, launched as the sample's
test() does with 4 ranks: inp_list = 4 f32 (256, 1024) arrays (a list of arrays), w f32 (1024, 512);
out = concatenate(inp_list) @ w, the operands rounded to tf32 (the kernel's astype(tfloat32)) and
accumulated in f32."""
import numpy as np

from parity import Case, Out, matmul, named


def cases(rng):
    peers = [rng.standard_normal((256, 1024)).astype(np.float32) for _ in range(4)]
    w = rng.standard_normal((1024, 512)).astype(np.float32)
    out, bound = matmul(np.concatenate(peers), w, tf32=True)
    args = {"inp_list": peers, "inp_len": 4, **named("w", w), **named("out", np.zeros((1024, 512), np.float32))}
    yield Case(file="real/gather_matmul.tile", grid=(8, 4, 1), args=args, expect={"out": Out(out, rtol=0, atol=bound)})

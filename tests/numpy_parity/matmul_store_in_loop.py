"""real/matmul_store_in_loop.tile: test/test_load_store.py make_ct_matmul_kernel(latency=5, allow_tma=False) as
TestArrayAssumption.test_load_store launches it: C = A @ B for f32 A (32, 128), B (128, 32) (torch.randn),
tm, tn, tk = 32, 16, 64: block (0, by) accumulates A[:, 64k:64k+64] @ B[64k:64k+64, 16by:16by+16] in f32 (mmaf on
f32 tiles, no tf32 rounding) and stores the running sum into its C tile in every iteration; the last store leaves
C = A @ B (the test's assert_close(C, A @ B)). C starts as NaN (the test's is zeros), so a tile no block stores
fails. Cases: the test's launch (2 iterations per block); and A (64, 256), B (256, 48), grid (2, 3, 1) (every extent
and row stride still a multiple of 16 and 4, as the file's div_by assumes; 4 iterations, 6 blocks)."""
import numpy as np

from parity import Case, Out, matmul, named


def cases(rng):
    for m, n, k in ((32, 32, 128), (64, 48, 256)):
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        want, bound = matmul(a, b)
        # f32 operands: the products are rounded too (or fused). A sum of K products in f32, in any order, is
        # within gamma_K sum|a b| = K 2^-24 / (1 - K 2^-24) sum|a b| of the exact one (Higham, Thm 3.1);
        # `bound` is K 2^-24 sum|a b|, and 1.0001 covers 1 / (1 - K 2^-24) for K <= 256.
        args = {**named("A", a), **named("B", b), **named("C", np.full((m, n), np.nan, np.float32))}
        yield Case(file="real/matmul_store_in_loop.tile", grid=(m // 32, n // 16, 1),
                   name=f"matmul_store_in_loop({m}x{n}x{k})", args=args,
                   expect={"C": Out(want, rtol=0, atol=bound * 1.0001)})

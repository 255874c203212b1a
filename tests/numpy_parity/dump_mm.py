"""A real cuTile compiler dump: test_samples/mm.mlir of Da1sypetals/bytecode2tileir (not shipped
here; scripts/numpy_parity.py --external DIR). @matmul_kernel: C (f32) = A @ B for f16 A, B with
64x32 output tiles and a K loop of 16-wide tiles, f32 accumulation.

Arguments (the dump's numbering): %0 A, %1 M, %2 K, %3 A's row stride, %4 unused; %5 B, %6 K,
%7 N, %8 B's row stride, %9 unused; %10 C, %11 M, %12 N, %13 C's row stride, %14..%17 unused."""
import numpy as np

from parity import Case, Out, matmul

EXTERNAL = "mm.mlir"


def cases(rng):
    m, n, k = 256, 128, 512
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    exact, bound = matmul(a, b)
    args = {"0": a, "1": m, "2": k, "3": k, "4": 1, "5": b, "6": k, "7": n, "8": n, "9": 1,
            "10": np.zeros((m, n), np.float32), "11": m, "12": n, "13": n, "14": 1, "15": 0, "16": 0, "17": 0}
    yield Case(file=EXTERNAL, grid=(m // 64, n // 32, 1), args=args, expect={"10": Out(exact, rtol=0, atol=bound)})

"""real/group_gemm.tile: test/kernels/group_gemm.py grouped_matmul_kernel, launched as
test/test_group_gemm.py does: three f16 problems (m, n, k) = (2, 4, 4), (8, 6, 6), (12, 16, 8)
passed as lists of arrays (As, Bs, Cs), Cs[g] = As[g] @ Bs[g] with f32 accumulation, stored as f16."""
import numpy as np

from parity import Case, Out, matmul


def cases(rng):
    mnk = [(2, 4, 4), (8, 6, 6), (12, 16, 8)]
    As = [rng.standard_normal((m, k)).astype(np.float16) for m, n, k in mnk]
    Bs = [rng.standard_normal((k, n)).astype(np.float16) for m, n, k in mnk]
    Cs = [np.full((m, n), np.float16(7)) for m, n, k in mnk]   # every element is written
    expect = {}
    for g, (a, b) in enumerate(zip(As, Bs)):
        c, bound = matmul(a, b)
        # The f32 sum (within bound) rounded once to f16: one f16 unit.
        expect[f"4[{g}]"] = Out(c, fmt="float16", rtol=2 ** -10, atol=bound + 2 ** -24)
    yield Case(file="real/group_gemm.tile", grid=(4, 1, 1),
               args={"0": As, "1": 3, "2": Bs, "3": 3, "4": Cs, "5": 3}, expect=expect)

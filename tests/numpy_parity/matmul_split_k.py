"""real/matmul_split_k.tile: test/kernels/matmul.py matmul_split_k_kernel (SPLIT_K 4, tm 64, tn 128, tk 256):
C = A @ B for f16 A (256, 4096) and B (4096, 256). Block (x, z) sums the K tiles z, z + 4, ... in f32,
rounds that partial sum to f16 and, under the spin lock LOCKS[x], stores it into C (the first of the four,
COUNTS[x] == 0) or adds it to C in f16. LOCKS and COUNTS end at 0. All of C is compared (it starts as NaN)."""
import numpy as np

from parity import Case, Out, matmul, named


def cases(rng):
    a = rng.standard_normal((256, 4096)).astype(np.float16)
    b = rng.standard_normal((4096, 256)).astype(np.float16)
    ks = [np.arange(4096).reshape(16, 256)[z::4].ravel() for z in range(4)]   # the K columns of split z
    parts = [matmul(a[:, k], b[k, :]) for k in ks]
    want = sum(p for p, _ in parts)
    # Each partial sum (1024 exact f16 products in f32): within bound * 8 / sqrt(1024) by the probabilistic
    # analysis (Higham & Mary 2019). Then its rounding to f16, the four together at most 2^-11 m with
    # m = sum |partial|, and 3 f16 additions in whichever order the lock gives, each at most 2^-11 of a sum
    # no larger than m: 4 * 2^-11 * m (1.001: the second-order terms; 2^-25 per rounding among subnormals).
    err = sum(e for _, e in parts) * 8 / np.sqrt(1024)
    m = sum(np.abs(p) for p, _ in parts) + err
    args = {**named("A", a), **named("B", b), **named("C", np.full((256, 256), np.nan, np.float16)),
            **named("LOCKS", np.zeros(32, np.int32)), **named("COUNTS", np.zeros(32, np.int32))}
    yield Case(file="real/matmul_split_k.tile", grid=(8, 4, 1), args=args,
               expect={"C": Out(want, fmt="float16", rtol=0, atol=err + 4 * 2 ** -11 * 1.001 * m + 7 * 2 ** -25),
                       "LOCKS": Out(np.zeros(32, np.int32), exact=True),
                       "COUNTS": Out(np.zeros(32, np.int32), exact=True)},
               check=False)  # the f16 sum's rounding follows the order the lock is taken in

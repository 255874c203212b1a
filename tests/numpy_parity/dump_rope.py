"""A real cuTile compiler dump: test_samples/rope.mlir of Da1sypetals/bytecode2tileir (not shipped
here; scripts/numpy_parity.py --external DIR). @rope_kernel rotates q and k in place, in f16:
with x0, x1 the two halves (dimension 3) of a (batch, 8 heads, seq, 2, 64) array and cos, sin of
shape (cos_batch, seq, 1, 64) (cos_batch 1: shared by every batch),
  x0' = fma(x0, cos, -(x1 * sin)),  x1' = fma(x1, cos, x0 * sin)
(each f16 op rounds once). The dump was compiled for seq = 1 (block b is batch b // 1).

Arguments (the dump's numbering): q %0, shape %1..%5, strides %6..%10; k %11..%21 likewise;
cos %22, shape %23..%26, strides %27..%30; sin %31..%39 likewise; %40..%44 unused."""
import numpy as np

from parity import Case, Out

EXTERNAL = "rope.mlir"


def f16(x):
    return np.asarray(x, dtype=np.float64).astype(np.float16).astype(np.float64)


def rotate(x, cos, sin):
    x0, x1 = x[:, :, :, 0, :].astype(np.float64), x[:, :, :, 1, :].astype(np.float64)
    c, s = cos.astype(np.float64)[None, None, 0, 0, :], sin.astype(np.float64)[None, None, 0, 0, :]
    out = np.empty_like(x)
    out[:, :, :, 0, :] = f16(x0 * c - f16(x1 * s))   # fma: one rounding of the exact x0*c - p
    out[:, :, :, 1, :] = f16(x1 * c + f16(x0 * s))
    return out


def cases(rng):
    batch = 4
    q = rng.standard_normal((batch, 8, 1, 2, 64)).astype(np.float16)
    k = rng.standard_normal((batch, 8, 1, 2, 64)).astype(np.float16)
    angle = rng.uniform(0, 2 * np.pi, (1, 1, 1, 64))
    cos, sin = np.cos(angle).astype(np.float16), np.sin(angle).astype(np.float16)
    args = {}
    for base, arr in ((0, q), (11, k), (22, cos), (31, sin)):
        args[str(base)] = arr
        for j, x in enumerate(list(arr.shape) + [s // 2 for s in arr.strides]):
            args[str(base + 1 + j)] = x
    args.update({str(i): 0 for i in range(40, 45)})
    # Each result is one f16 rounding of an exact value (products of f16 are exact in f64):
    # the interpreter must give the same bits.
    yield Case(file=EXTERNAL, grid=(batch, 1, 1), args=args,
               expect={"0": Out(rotate(q, cos, sin), fmt="float16", exact=True),
                       "11": Out(rotate(k, cos, sin), fmt="float16", exact=True)})

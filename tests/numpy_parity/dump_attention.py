"""A real cuTile compiler dump: test_samples/attention.mlir of Da1sypetals/bytecode2tileir (not
shipped here; scripts/numpy_parity.py --external DIR). @flash_attention over (seq, heads, 64) f16
Q, K, V: Q is scaled by log2(e) in f16, S = Q K^T in f32, key columns at or past seq_len_kv get
-1e7, P = exp2(S) (no running maximum), Out = (f16(P) V) / rowsum(P), stored as f16.

Arguments (the dump's numbering, test_samples/attention_in_params.md): Q %0 with shape %1..%3 and
strides %4, %5 (%6 unused); K from %7, V from %14, Out from %21, likewise; %28 seq_len_kv;
%29..%31 unused. Grid: (seq_q / 32, heads)."""
import numpy as np

from parity import Case, Out

EXTERNAL = "attention.mlir"


def cases(rng):
    sq, skv, heads, d = 64, 128, 2, 64
    kv_len = 100    # columns 100..127 of the last key tile are masked off
    # Small inputs: the kernel takes exp2 of raw scores, without subtracting a maximum.
    q = (0.2 * rng.standard_normal((sq, heads, d))).astype(np.float16)
    k = (0.2 * rng.standard_normal((skv, heads, d))).astype(np.float16)
    v = rng.standard_normal((skv, heads, d)).astype(np.float16)
    log2e = np.float16(1.442383)
    qs = (q.astype(np.float32) * np.float32(log2e)).astype(np.float16).astype(np.float64)
    out = np.zeros((sq, heads, d), np.float16)
    for h in range(heads):
        s = qs[:, h, :] @ k[:, h, :].astype(np.float64).T
        s[:, kv_len:] += -1e7
        p = np.exp2(s).astype(np.float32)
        acc = p.astype(np.float16).astype(np.float64) @ v[:, h, :].astype(np.float64)
        out[:, h, :] = (acc / p.astype(np.float64).sum(axis=1, keepdims=True)).astype(np.float16)
    def dims(a):
        return [a.shape[0], a.shape[1], a.shape[2], a.strides[0] // 2, a.strides[1] // 2, 1]
    args = {}
    for base, arr in ((0, q), (7, k), (14, v), (21, np.zeros_like(out))):
        args[str(base)] = arr
        for j, x in enumerate(dims(arr)):
            args[str(base + 1 + j)] = x
    args.update({"28": kv_len, "29": 0, "30": 0, "31": 0})
    # f16 output: one f16 ulp, plus the f32 differences of exp2 and the approximate divide
    # that can move the f16 rounding of P and of the result by one more ulp.
    yield Case(file=EXTERNAL, grid=(sq // 32, heads, 1), args=args,
               expect={"21": Out(out, fmt="float16", rtol=2 ** -9, atol=2 ** -14)})

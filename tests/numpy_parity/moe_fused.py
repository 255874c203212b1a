"""real/moe_fused.tile: samples/MoE.py fused_moe_kernel, the first launch of cutile_moe() (gate + up
projection, mul_routed_weight False, num_token_replicas = topk = 8) at the sample's sizes: 48 bf16 tokens of
512, 64 experts, w1 bf16 (64, 2048, 512). Token-replica r = 8 t + j goes to expert topk_ids[t, j]; its row
of C (384, 2048) is A[t] @ w1[expert].T, f32 accumulation, stored as bf16. The routing is drawn until every
expert has a token, as the file's launch assumes (one 128-row block per expert, M = 8192, sentinel 384 in
the padding slots). All of C is compared: every replica appears once, so every row is written."""
import numpy as np

from parity import Case, Out, bf16_bits, bf16_value, positional


def cases(rng):
    a = bf16_bits(0.5 * rng.standard_normal((48, 512), dtype=np.float32))
    w1 = bf16_bits(0.1 * rng.standard_normal((64, 2048, 512), dtype=np.float32))
    while True:
        topk_ids = np.stack([rng.permutation(64)[:8] for _ in range(48)])
        if np.all(np.bincount(topk_ids.ravel(), minlength=64) > 0):
            break
    logits = rng.standard_normal((48, 8))
    topk_weights = bf16_bits(np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)).ravel()
    # moe_align_tile_size: replicas sorted (stably) by expert, expert e's in slots 128 e ..
    expert = topk_ids.ravel()
    sorted_token_ids = np.full(64 * 128, 384, np.int32)
    for e in range(64):
        rows = np.flatnonzero(expert == e)
        sorted_token_ids[128 * e:128 * e + rows.size] = rows
    sorted_expert_ids = np.arange(64, dtype=np.int32)

    av = bf16_value(a).astype(np.float64)
    want, sum_abs = np.empty((384, 2048)), np.empty((384, 2048))
    for e in range(64):
        rows = np.flatnonzero(expert == e)
        we = bf16_value(w1[e]).astype(np.float64)
        want[rows] = av[rows // 8] @ we.T
        sum_abs[rows] = np.abs(av[rows // 8]) @ np.abs(we).T
    # The f32 sum of K = 512 exact bf16 products: rounding errors as independent variables stay within
    # 8 sqrt(K) 2^-24 sum|a w| (Higham & Mary 2019; fails with probability < 2K e^-32). Rounded once to
    # bf16: half an ulp, at most 2^-8 of |sum|.
    err = 8 * np.sqrt(512) * 2.0 ** -24 * sum_abs
    c = np.full((384, 2048), 0x7FC0, np.uint16)   # NaN
    args = {**positional(0, a), **positional(5, w1), **positional(12, c), **positional(17, topk_weights),
            **positional(20, sorted_token_ids), **positional(23, sorted_expert_ids), "26": 8}
    yield Case(file="real/moe_fused.tile", grid=(1024, 1, 1), args=args,
               expect={"12": Out(want, fmt="bf16", rtol=2 ** -8, atol=err * (1 + 2 ** -8))})

# Twin of kernels/gemm.py matmul_grouped with one seeded bug (launched with GROUP_M = 3, which
# does not divide the 4 tile rows; the original kernel is right for it).
import cuda.tile as ct


# tilesight: launch grid=(12,) A=f16[256,128] B=f16[128,192] C=f16[256,192] TM=64 TN=64 TK=32 GROUP_M=3
@ct.kernel
def matmul_grouped(A, B, C, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int],
                   GROUP_M: ct.Constant[int]):
    pid = ct.bid(0)
    num_m = ct.cdiv(A.shape[0], TM)
    num_n = ct.cdiv(B.shape[1], TN)
    per_group = GROUP_M * num_n
    group = pid // per_group
    first_m = group * GROUP_M
    # The last group taken as full (no min with the rows left): tile rows 4 and 5 of 4.
    group_size = GROUP_M
    bm = first_m + (pid % per_group) % group_size
    bn = (pid % per_group) // group_size
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[1], TK)):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)  # BUG: bounds.index error
        b = ct.load(B, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bm, bn), tile=acc.astype(C.dtype))  # BUG: bounds.index error

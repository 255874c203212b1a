# Matrix multiplication: the K loop with ct.mma, a 1D grid with grouped tile order, a batched
# one, and a linear layer (x @ W^T + bias, ReLU) reading W transposed through `order`.
import cuda.tile as ct


# tilesight: launch grid=(2,2) A=f16[128,256] B=f16[256,128] C=f32[128,128] TM=64 TN=64 TK=32
@ct.kernel
def matmul(A, B, C, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    # C[M, N] = A[M, K] @ B[K, N]; fp16 inputs, fp32 accumulator and output.
    # Grid: (M / TM, N / TN); K is a multiple of TK.
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(A.shape[1] // TK):
        a = ct.load(A, index=(bm, k), shape=(TM, TK))
        b = ct.load(B, index=(k, bn), shape=(TK, TN))
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bm, bn), tile=acc)


# tilesight: launch grid=(12,) A=f16[256,128] B=f16[128,192] C=f16[256,192] TM=64 TN=64 TK=32 GROUP_M=2
@ct.kernel
def matmul_grouped(A, B, C, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int],
                   GROUP_M: ct.Constant[int]):
    # 1D grid over all output tiles, visited GROUP_M tile rows at a time so that blocks
    # running together share tiles of B. fp16 output.
    pid = ct.bid(0)
    num_m = ct.cdiv(A.shape[0], TM)
    num_n = ct.cdiv(B.shape[1], TN)
    per_group = GROUP_M * num_n
    group = pid // per_group
    first_m = group * GROUP_M
    group_size = ct.minimum(num_m - first_m, GROUP_M)
    bm = first_m + (pid % per_group) % group_size
    bn = (pid % per_group) // group_size
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[1], TK)):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bm, bn), tile=acc.astype(C.dtype))


# tilesight: launch grid=(2,1,4) A=f32[4,64,96] B=f32[4,96,32] C=f32[4,64,32] TM=32 TN=32 TK=32
@ct.kernel
def batched_matmul(A, B, C, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    # C[b] = A[b] @ B[b]; grid (M / TM, N / TN, batch).
    bm = ct.bid(0)
    bn = ct.bid(1)
    bb = ct.bid(2)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(A.shape[2] // TK):
        a = ct.load(A, index=(bb, bm, k), shape=(1, TM, TK)).reshape((TM, TK))
        b = ct.load(B, index=(bb, k, bn), shape=(1, TK, TN)).reshape((TK, TN))
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bb, bm, bn), tile=acc.reshape((1, TM, TN)))


# tilesight: launch grid=(2,3) X=bf16[64,128] W=bf16[96,128] bias=f32[96] Y=f32[64,96] TM=32 TN=32 TK=32
@ct.kernel
def linear_bias_relu(X, W, bias, Y, TM: ct.Constant[int], TN: ct.Constant[int],
                     TK: ct.Constant[int]):
    # Y = relu(X @ W^T + bias), X[M, K] and W[N, K] in bf16, Y in fp32.
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(X.shape[1] // TK):
        x = ct.load(X, index=(bm, k), shape=(TM, TK))
        wt = ct.load(W, index=(k, bn), shape=(TK, TN), order=(1, 0))
        acc = ct.mma(x, wt, acc)
    bt = ct.load(bias, index=(bn,), shape=(TN,))
    ct.store(Y, index=(bm, bn), tile=ct.maximum(acc + bt, 0.0))

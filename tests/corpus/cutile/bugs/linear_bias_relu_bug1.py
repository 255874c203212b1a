# Twin of kernels/gemm.py linear_bias_relu with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(2,3) X=bf16[64,128] W=bf16[96,128] bias=f32[96] Y=f32[64,96] TM=32 TN=32 TK=32
@ct.kernel
def linear_bias_relu(X, W, bias, Y, TM: ct.Constant[int], TN: ct.Constant[int],
                     TK: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(X.shape[1] // TK):
        x = ct.load(X, index=(bm, k), shape=(TM, TK))
        # W[N, K] read as if it were [K, N] (order forgotten): W has 3 row tiles, k runs to 3.
        wt = ct.load(W, index=(k, bn), shape=(TK, TN))  # BUG: bounds.index error
        acc = ct.mma(x, wt, acc)
    bt = ct.load(bias, index=(bn,), shape=(TN,))
    ct.store(Y, index=(bm, bn), tile=ct.maximum(acc + bt, 0.0))

# Twin of kernels/gemm.py linear_bias_relu with one seeded bug, one that cuTile itself rejects.
import cuda.tile as ct


# tilesight: launch grid=(2,3) X=bf16[64,128] W=bf16[96,128] bias=f32[96] Y=f32[64,96] TM=32 TN=32 TK=32
@ct.kernel
def linear_bias_relu(X, W, bias, Y, TM: ct.Constant[int], TN: ct.Constant[int],
                     TK: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    # An fp16 accumulator for bf16 inputs (bf16 MMA accumulates in fp32 only).
    acc = ct.zeros((TM, TN), dtype=ct.float16)
    for k in range(X.shape[1] // TK):
        x = ct.load(X, index=(bm, k), shape=(TM, TK))
        wt = ct.load(W, index=(k, bn), shape=(TK, TN), order=(1, 0))
        # cuTile: TypeCheckingError: Unsupported acc dtype float16, supported dtypes are (<DType 'float32'>,) (line 17, col 15-32)
        acc = ct.mma(x, wt, acc)  # BUG: cutile-error
    bt = ct.load(bias, index=(bn,), shape=(TN,))
    ct.store(Y, index=(bm, bn), tile=ct.maximum(acc + bt, 0.0))

# Twin of kernels/gemm.py batched_matmul with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(2,1,4) A=f32[4,64,96] B=f32[4,96,32] C=f32[4,64,32] TM=32 TN=32 TK=32
@ct.kernel
def batched_matmul(A, B, C, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    bb = ct.bid(2)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(A.shape[2] // TK):
        a = ct.load(A, index=(bb, bm, k), shape=(1, TM, TK)).reshape((TM, TK))
        b = ct.load(B, index=(bb, k, bn), shape=(1, TK, TN)).reshape((TK, TN))
        acc = ct.mma(a, b, acc)
    # Batch and row tile swapped on the store: C has 2 row tiles, the batch id runs to 3.
    ct.store(C, index=(bm, bb, bn), tile=acc.reshape((1, TM, TN)))  # BUG: bounds.index error

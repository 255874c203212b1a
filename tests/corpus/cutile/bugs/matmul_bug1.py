# Twin of kernels/gemm.py matmul with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(2,2) A=f16[128,256] B=f16[256,128] C=f32[128,128] TM=64 TN=64 TK=32
@ct.kernel
def matmul(A, B, C, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(A.shape[1] // TK):
        a = ct.load(A, index=(bm, k), shape=(TM, TK))
        # Tile indices of B swapped: B has 2 column tiles, k runs to 7.
        b = ct.load(B, index=(bn, k), shape=(TK, TN))  # BUG: bounds.index error
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bm, bn), tile=acc)

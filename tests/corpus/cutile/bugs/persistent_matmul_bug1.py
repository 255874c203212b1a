# Twin of kernels/persistent.py persistent_matmul with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(6,) A=f16[128,128] B=f16[128,128] C=f32[128,128] TM=32 TN=32 TK=32
@ct.kernel
def persistent_matmul(A, B, C, TM: ct.Constant[int], TN: ct.Constant[int],
                      TK: ct.Constant[int]):
    num_m = A.shape[0] // TM
    num_n = B.shape[1] // TN
    # One tile too many in the tile loop: tile num_m * num_n has row tile num_m.
    for tile in range(ct.bid(0), num_m * num_n + 1, ct.num_blocks(0)):
        bm = tile // num_n
        bn = tile % num_n
        acc = ct.zeros((TM, TN), dtype=ct.float32)
        for k in range(A.shape[1] // TK):
            a = ct.load(A, index=(bm, k), shape=(TM, TK))  # BUG: bounds.index error
            b = ct.load(B, index=(k, bn), shape=(TK, TN))
            acc = ct.mma(a, b, acc)
        ct.store(C, index=(bm, bn), tile=acc)  # BUG: bounds.index error

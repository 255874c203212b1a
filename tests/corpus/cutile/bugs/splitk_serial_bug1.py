# Twin of kernels/splitk.py splitk_serial with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(1,2,4) A=f16[64,512] B=f16[512,128] C=f32[64,128] turn=i32[2] TM=64 TN=64 TK=32 SPLITS=4
@ct.kernel
def splitk_serial(A, B, C, turn, TM: ct.Constant[int], TN: ct.Constant[int],
                  TK: ct.Constant[int], SPLITS: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    s = ct.bid(2)
    k_tiles = A.shape[1] // TK
    per_split = k_tiles // SPLITS
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(s * per_split, (s + 1) * per_split):
        a = ct.load(A, index=(bm, k), shape=(TM, TK))
        b = ct.load(B, index=(k, bn), shape=(TK, TN))
        acc = ct.mma(a, b, acc)
    t = bm * ct.num_blocks(1) + bn
    while ct.load(turn, index=(t,), shape=(), memory_order=ct.MemoryOrder.ACQUIRE,
                  memory_scope=ct.MemoryScope.DEVICE) != s:
        pass
    if s == 0:
        ct.store(C, index=(bm, bn), tile=acc)
    else:
        c = ct.load(C, index=(bm, bn), shape=(TM, TN))
        ct.store(C, index=(bm, bn), tile=c + acc)
    # The hand-over released at block scope: the next split runs in another block.
    ct.store(turn, index=(t,), tile=s + 1, memory_order=ct.MemoryOrder.RELEASE, memory_scope=ct.MemoryScope.BLOCK)  # BUG: race.scope error

# Twin of kernels/splitk.py splitk_locked with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(1,2,4) A=f16[64,512] B=f16[512,128] C=f32[64,128] locks=i32[2] TM=64 TN=64 TK=32 SPLITS=4
@ct.kernel
def splitk_locked(A, B, C, locks, TM: ct.Constant[int], TN: ct.Constant[int],
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
    lock = bm * ct.num_blocks(1) + bn
    # Lock taken with a relaxed CAS (no acquire): loading C is not ordered after the last store.
    while ct.atomic_cas(locks, lock, 0, 1, memory_order=ct.MemoryOrder.RELAXED) == 1:
        pass
    c = ct.load(C, index=(bm, bn), shape=(TM, TN))  # BUG: race.unordered error
    ct.store(C, index=(bm, bn), tile=c + acc)  # BUG: race.unordered error
    ct.atomic_xchg(locks, lock, 0, memory_order=ct.MemoryOrder.RELEASE)

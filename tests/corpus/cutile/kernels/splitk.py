# Split-K matrix multiplication: grid (M / TM, N / TN, SPLITS); block (bm, bn, s) multiplies
# the s-th slice of K and adds its partial product into C, which starts zeroed. Three ways to
# combine the partials: atomic adds, a spin lock per output tile, and a turnstile that adds
# the splits in order (deterministic result).
import cuda.tile as ct


# tilesight: launch grid=(1,2,4) A=f16[64,512] B=f16[512,128] C=f32[64,128] TM=64 TN=64 TK=32 SPLITS=4
@ct.kernel
def splitk_atomic(A, B, C, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int],
                  SPLITS: ct.Constant[int]):
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
    rows = (bm * TM + ct.arange(TM, dtype=ct.int32)).reshape((TM, 1))
    cols = (bn * TN + ct.arange(TN, dtype=ct.int32)).reshape((1, TN))
    ct.atomic_add(C, (rows, cols), acc, memory_order=ct.MemoryOrder.RELAXED)


# tilesight: launch grid=(1,2,4) A=f16[64,512] B=f16[512,128] C=f32[64,128] locks=i32[2] TM=64 TN=64 TK=32 SPLITS=4
@ct.kernel
def splitk_locked(A, B, C, locks, TM: ct.Constant[int], TN: ct.Constant[int],
                  TK: ct.Constant[int], SPLITS: ct.Constant[int]):
    # locks: one int32 per output tile, all 0 at launch.
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
    while ct.atomic_cas(locks, lock, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    c = ct.load(C, index=(bm, bn), shape=(TM, TN))
    ct.store(C, index=(bm, bn), tile=c + acc)
    ct.atomic_xchg(locks, lock, 0, memory_order=ct.MemoryOrder.RELEASE)


# tilesight: launch grid=(1,2,4) A=f16[64,512] B=f16[512,128] C=f32[64,128] turn=i32[2] TM=64 TN=64 TK=32 SPLITS=4
@ct.kernel
def splitk_serial(A, B, C, turn, TM: ct.Constant[int], TN: ct.Constant[int],
                  TK: ct.Constant[int], SPLITS: ct.Constant[int]):
    # turn: one int32 per output tile, 0 at launch; split s waits until turn == s, adds its
    # partial, then hands the tile to split s + 1.
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
    ct.store(turn, index=(t,), tile=s + 1, memory_order=ct.MemoryOrder.RELEASE,
             memory_scope=ct.MemoryScope.DEVICE)

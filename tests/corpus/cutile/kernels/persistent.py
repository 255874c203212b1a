# Persistent kernels: a fixed, small grid whose blocks stride over all the tiles; a persistent
# GEMM; a dynamic work queue where blocks take the next tile from an atomic counter.
import cuda.tile as ct


# tilesight: launch grid=(4,) x=f32[5000] out=f32[5000] alpha=-1.5 TILE=256
@ct.kernel
def persistent_scale(x, out, alpha, TILE: ct.Constant[int]):
    # Any grid size works; len(x) need not be a multiple of TILE.
    ntiles = ct.num_tiles(x, axis=0, shape=(TILE,))
    for t in range(ct.bid(0), ntiles, ct.num_blocks(0)):
        v = ct.load(x, index=(t,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        ct.store(out, index=(t,), tile=v * alpha)


# tilesight: launch grid=(6,) A=f16[128,128] B=f16[128,128] C=f32[128,128] TM=32 TN=32 TK=32
@ct.kernel
def persistent_matmul(A, B, C, TM: ct.Constant[int], TN: ct.Constant[int],
                      TK: ct.Constant[int]):
    # Output tiles numbered row-major; block b computes tiles b, b + nb, b + 2 nb, ...
    num_m = A.shape[0] // TM
    num_n = B.shape[1] // TN
    for tile in range(ct.bid(0), num_m * num_n, ct.num_blocks(0)):
        bm = tile // num_n
        bn = tile % num_n
        acc = ct.zeros((TM, TN), dtype=ct.float32)
        for k in range(A.shape[1] // TK):
            a = ct.load(A, index=(bm, k), shape=(TM, TK))
            b = ct.load(B, index=(k, bn), shape=(TK, TN))
            acc = ct.mma(a, b, acc)
        ct.store(C, index=(bm, bn), tile=acc)


# tilesight: launch grid=(6,) x=f32[3000] out=f32[3000] counter=i32[1] TILE=128
@ct.kernel
def dynamic_queue(x, out, counter, TILE: ct.Constant[int]):
    # counter: one int32, 0 at launch. Each block repeatedly claims the next tile index and
    # stops when the tiles run out. out = x * x + 1.
    ntiles = ct.cdiv(x.shape[0], TILE)
    while True:
        t = ct.atomic_add(counter, 0, 1)
        if t >= ntiles:
            break
        v = ct.load(x, index=(t,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        ct.store(out, index=(t,), tile=v * v + 1.0)

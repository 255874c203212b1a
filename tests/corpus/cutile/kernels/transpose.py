# Transposes: a tile transpose in registers, and one that reads through order="F".
import cuda.tile as ct


# tilesight: launch grid=(2,3) x=f32[64,96] out=f32[96,64] T=32
@ct.kernel
def transpose_tile(x, out, T: ct.Constant[int]):
    # out = x.T; grid (rows / T, cols / T).
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(T, T))
    ct.store(out, index=(j, i), tile=ct.transpose(t))


# tilesight: launch grid=(3,2) x=f32[64,96] out=f32[96,64] TM=32 TN=32
@ct.kernel
def transpose_order(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    # out (N, M) = x (M, N).T, one (TM, TN) tile of out per block: the tile is read from x
    # with the axes swapped. Grid (N / TM, M / TN).
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), order="F")
    ct.store(out, index=(i, j), tile=t)

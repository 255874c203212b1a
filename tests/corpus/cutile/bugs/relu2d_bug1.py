# Twin of kernels/elementwise.py relu2d with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(3,5) x=f32[96,160] out=f32[96,160] TM=32 TN=32
@ct.kernel
def relu2d(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    # Block ids swapped on the load: grid axis 1 has 5 blocks, x has only 3 row tiles.
    t = ct.load(x, index=(bn, bm), shape=(TM, TN))  # BUG: bounds.index error
    ct.store(out, index=(bm, bn), tile=ct.maximum(t, 0.0))

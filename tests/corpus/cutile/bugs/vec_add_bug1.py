# Twin of kernels/elementwise.py vec_add with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(16,) a=f32[4096] b=f32[4096] out=f32[4096] TILE=256
@ct.kernel
def vec_add(a, b, out, TILE: ct.Constant[int]):
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(TILE,))
    # Off-by-one tile index: the last block reads tile len(b) / TILE, past the end of b.
    y = ct.load(b, index=(i + 1,), shape=(TILE,))  # BUG: bounds.index error
    ct.store(out, index=(i,), tile=x + y)

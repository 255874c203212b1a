# Twin of kernels/transpose.py transpose_tile with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(2,3) x=f32[64,96] out=f32[96,64] T=32
@ct.kernel
def transpose_tile(x, out, T: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(T, T))
    # The tile index not swapped on the store: out has 2 column tiles, j runs to 2.
    ct.store(out, index=(i, j), tile=ct.transpose(t))  # BUG: bounds.index error

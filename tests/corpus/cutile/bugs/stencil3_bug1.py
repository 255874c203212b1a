# Twin of kernels/gather_scatter.py stencil3 with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(16,) x=f32[4096] y=f32[4096] TILE=256
@ct.kernel
def stencil3(x, y, TILE: ct.Constant[int]):
    b = ct.bid(0)
    i = b * TILE + ct.arange(TILE, dtype=ct.int32)
    left = ct.gather(x, i - 1)
    mid = ct.load(x, index=(b,), shape=(TILE,))
    # Bounds check turned off on the right neighbour: the last lane of the last block reads x[n].
    right = ct.gather(x, i + 1, check_bounds=False)  # BUG: bounds.index error
    ct.store(y, index=(b,), tile=(left + 2.0 * mid + right) * 0.25)

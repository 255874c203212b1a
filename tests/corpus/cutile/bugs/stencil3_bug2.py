# Twin of kernels/gather_scatter.py stencil3 with one seeded bug (tiled_view traversal_steps
# needs 13.3).
import cuda.tile as ct


@ct.kernel
def stencil3(x, y, TILE: ct.Constant[int]):
    b = ct.bid(0)
    i = b * TILE + ct.arange(TILE, dtype=ct.int32)
    left = ct.gather(x, i - 1)
    mid = ct.load(x, index=(b,), shape=(TILE,))
    right = ct.gather(x, i + 1)
    # The result stored through a view of overlapping windows (steps of half a tile, as for a
    # halo read): window b and window b + 1 share TILE / 2 elements of y.
    yv = y.tiled_view((TILE,), traversal_steps=(TILE // 2,))
    yv.store((b,), (left + 2.0 * mid + right) * 0.25)  # BUG: layout.overlap error

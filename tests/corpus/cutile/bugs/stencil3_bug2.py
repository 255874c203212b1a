# Twin of kernels/gather_scatter.py stencil3 with one seeded bug (tiled_view traversal_steps
# needs 13.3).
import cuda.tile as ct


# tilesight: launch grid=(16,) x=f32[4096] y=f32[4096] TILE=256
@ct.kernel
def stencil3(x, y, TILE: ct.Constant[int]):
    b = ct.bid(0)
    i = b * TILE + ct.arange(TILE, dtype=ct.int32)
    left = ct.gather(x, i - 1)
    mid = ct.load(x, index=(b,), shape=(TILE,))
    right = ct.gather(x, i + 1)
    # Result stored through overlapping windows (steps of TILE // 2): windows b, b + 1 overlap.
    yv = y.tiled_view((TILE,), traversal_steps=(TILE // 2,))
    yv.store((b,), (left + 2.0 * mid + right) * 0.25)  # BUG: race.unordered error

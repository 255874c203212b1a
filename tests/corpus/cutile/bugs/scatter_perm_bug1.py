# Twin of kernels/gather_scatter.py scatter_perm with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(8,) x=f32[1000] perm=i32[1000] out=f32[1000] TILE=128
@ct.kernel
def scatter_perm(x, perm, out, TILE: ct.Constant[int]):
    b = ct.bid(0)
    n = x.shape[0]
    i = b * TILE + ct.arange(TILE, dtype=ct.int32)
    valid = i < n
    p = ct.gather(perm, i, mask=valid)
    v = ct.gather(x, i, mask=valid)
    # Mask forgotten on the scatter: the lanes past n store 0 into out[0] (gathered index 0).
    ct.scatter(out, p, v)  # BUG: race.unordered warning

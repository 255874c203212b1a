# Twin of kernels/control.py first_above with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(4,) x=f32[4096] found=i32[4] thresh=0.999 SEG=1024 TILE=256
@ct.kernel
def first_above(x, found, thresh, SEG: ct.Constant[int], TILE: ct.Constant[int]):
    b = ct.bid(0)
    tiles_per_seg = SEG // TILE
    result = ct.int32(-1)
    for j in range(tiles_per_seg):
        t = b * tiles_per_seg + j
        # The segment's element offset used as a tile index: block 1 starts at tile 1024.
        v = ct.load(x, index=(b * SEG + j,), shape=(TILE,))  # BUG: bounds.index error
        idx = t * TILE + ct.arange(TILE, dtype=ct.int32)
        hit = ct.min(ct.where(v > thresh, idx, 2147483647))
        if hit != 2147483647:
            result = hit
            break
    ct.store(found, index=(b,), tile=result)

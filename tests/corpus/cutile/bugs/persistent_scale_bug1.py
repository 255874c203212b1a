# Twin of kernels/persistent.py persistent_scale with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(4,) x=f32[5000] out=f32[5000] alpha=-1.5 TILE=256
@ct.kernel
def persistent_scale(x, out, alpha, TILE: ct.Constant[int]):
    ntiles = ct.num_tiles(x, axis=0, shape=(TILE,))
    # The grid stride left out of the range: the blocks store the same tiles.
    for t in range(ct.bid(0), ntiles):
        v = ct.load(x, index=(t,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        ct.store(out, index=(t,), tile=v * alpha)  # BUG: race.unordered error

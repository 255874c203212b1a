# Twin of kernels/reductions.py histogram with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(16,) vals=i32[4096] hist=i32[64] TILE=256
@ct.kernel
def histogram(vals, hist, TILE: ct.Constant[int]):
    i = ct.bid(0)
    v = ct.load(vals, index=(i,), shape=(TILE,))
    # Gather + scatter instead of an atomic add: blocks whose values share a bin lose counts.
    h = ct.gather(hist, v)  # BUG: race.unordered warning
    ct.scatter(hist, v, h + 1)  # BUG: race.unordered warning

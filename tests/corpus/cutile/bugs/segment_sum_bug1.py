# Twin of kernels/gather_scatter.py segment_sum with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(8,) x=f32[2048] seg=i32[2048] out=f32[32] TILE=256
@ct.kernel
def segment_sum(x, seg, out, TILE: ct.Constant[int]):
    b = ct.bid(0)
    v = ct.load(x, index=(b,), shape=(TILE,))
    s = ct.load(seg, index=(b,), shape=(TILE,))
    # Gather + add + scatter instead of an atomic add: blocks hitting the same segment race.
    cur = ct.gather(out, s)  # BUG: race.unordered warning
    ct.scatter(out, s, cur + v)  # BUG: race.unordered warning

# Twin of kernels/reductions.py block_sum_atomic with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(8,) x=i32[4096] total=i32[1] TILE=512
@ct.kernel
def block_sum_atomic(x, total, TILE: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,))
    s = ct.sum(t)
    # A plain read-modify-write of total[0] instead of an atomic add: every block does it.
    cur = ct.load(total, index=(0,), shape=())  # BUG: race.unordered error
    ct.store(total, index=(0,), tile=cur + s)  # BUG: race.unordered error

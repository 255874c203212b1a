# Twin of kernels/reductions.py block_sum_atomic with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(8,) x=i32[4096] total=i32[1] TILE=512
@ct.kernel
def block_sum_atomic(x, total, TILE: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,))
    s = ct.sum(t)
    # Block scope on an atomic that all the blocks of the grid apply to the same element.
    ct.atomic_add(total, 0, s, memory_order=ct.MemoryOrder.RELAXED, memory_scope=ct.MemoryScope.BLOCK)  # BUG: race.scope error

# Twin of kernels/scans.py cumsum_single_block with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(1,) x=i32[2048] y=i32[2048] TILE=256
@ct.kernel
def cumsum_single_block(x, y, TILE: ct.Constant[int]):
    carry = ct.zeros((1,), dtype=ct.int32)
    # A hand-made cdiv (n // TILE + 1): one tile too many when len(x) is a multiple of TILE.
    for j in range(x.shape[0] // TILE + 1):
        t = ct.load(x, index=(j,), shape=(TILE,))  # BUG: bounds.index error
        ct.store(y, index=(j,), tile=ct.cumsum(t, axis=0) + carry)  # BUG: bounds.index error
        carry = carry + ct.sum(t, axis=0, keepdims=True)

# Twin of kernels/control.py guarded_tail with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(10,) x=f32[2000] out=f32[2000] TILE=256
@ct.kernel
def guarded_tail(x, out, TILE: ct.Constant[int]):
    b = ct.bid(0)
    # > instead of >= in the guard: block cdiv(n, TILE) gets through with a tile past the end.
    if b > ct.cdiv(x.shape[0], TILE):
        return
    v = ct.load(x, index=(b,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)  # BUG: bounds.index error
    ct.store(out, index=(b,), tile=ct.abs(v))  # BUG: bounds.index error

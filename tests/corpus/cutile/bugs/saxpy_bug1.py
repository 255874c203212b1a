# Twin of kernels/elementwise.py saxpy with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(12,) x=f32[3000] y=f32[3000] out=f32[3000] alpha=2.5 TILE=256
@ct.kernel
def saxpy(x, y, out, alpha, TILE: ct.Constant[int]):
    i = ct.bid(0)
    # Element offset used as a tile index (a Triton habit): every block but 0 is far outside x.
    tx = ct.load(x, index=(i * TILE,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)  # BUG: bounds.index error
    ty = ct.load(y, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i,), tile=alpha * tx + ty)

# Twin of kernels/persistent.py dynamic_queue with one seeded bug.
import cuda.tile as ct


# tilesight: launch grid=(6,) x=f32[3000] out=f32[3000] counter=i32[1] TILE=128
@ct.kernel
def dynamic_queue(x, out, counter, TILE: ct.Constant[int]):
    ntiles = ct.cdiv(x.shape[0], TILE)
    while True:
        t = ct.atomic_add(counter, 0, 1)
        # > instead of >=: the block that claims t == ntiles goes on with a tile past the end.
        if t > ntiles:
            break
        v = ct.load(x, index=(t,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)  # BUG: bounds.index error
        ct.store(out, index=(t,), tile=v * v + 1.0)  # BUG: bounds.index error

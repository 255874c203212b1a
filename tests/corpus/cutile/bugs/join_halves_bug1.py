# Twin of kernels/v13_4.py join_halves with one seeded bug (written for tilesight's tests).
import cuda.tile as ct


# tilesight: launch grid=(6,) version=13.4 a=f32[768] b=f32[768] out=f32[1536] T=128 T2=256
@ct.kernel
def join_halves(a, b, out, T: ct.Constant[int], T2: ct.Constant[int]):
    i = ct.bid(0)
    ta = ct.load(a, index=(i,), shape=(T,))
    tb = ct.load(b, index=(i,), shape=(T,))
    both = ct.zeros((T2,), dtype=ct.float32)
    both = ct.insert(both, (0,), ta)
    both = ct.insert(both, (1,), tb)
    # Stored one tile too far: the last block's tile index is past the end of out.
    ct.store(out, index=(i + 1,), tile=both)  # BUG: bounds.index error

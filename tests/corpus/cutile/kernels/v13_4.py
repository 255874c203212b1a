# Kernels whose bytecode differs at 13.4: an integer power `** 2` of a float tile is
# fpowi there (pow before), and ct.insert and grid dependency control exist only there.
# Written for tilesight's own tests (not part of the blind-written set).
import cuda.tile as ct


# tilesight: launch grid=(8,) x=f32[8,256] out=f32[8] TN=256
@ct.kernel
def row_variance(x, out, TN: ct.Constant[int]):
    # One block per row; a row is one tile of TN elements.
    r = ct.bid(0)
    t = ct.load(x, index=(r, 0), shape=(1, TN))
    mean = ct.sum(t, axis=1, keepdims=True) / TN
    var = ct.sum((t - mean) ** 2, axis=1) / TN
    ct.store(out, index=(r,), tile=var)


# tilesight: launch grid=(6,) version=13.4 a=f32[768] b=f32[768] out=f32[1536] T=128 T2=256
@ct.kernel
def join_halves(a, b, out, T: ct.Constant[int], T2: ct.Constant[int]):
    # Tile i of out (2T elements) is tile i of a followed by tile i of b.
    i = ct.bid(0)
    ta = ct.load(a, index=(i,), shape=(T,))
    tb = ct.load(b, index=(i,), shape=(T,))
    both = ct.zeros((T2,), dtype=ct.float32)
    both = ct.insert(both, (0,), ta)
    both = ct.insert(both, (1,), tb)
    ct.store(out, index=(i,), tile=both)


# tilesight: launch grid=(4,) version=13.4 x=f32[1024] out=f32[1024] alpha=3.0 TILE=256
@ct.kernel
def scale_dependent(x, out, alpha, TILE: ct.Constant[int]):
    # Launched as a programmatic dependent of the kernel that writes x: wait for it,
    # then let the next kernel start once this block has stored its tile.
    ct.grid_dependency_control_wait()
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,))
    ct.store(out, index=(i,), tile=t * alpha)
    ct.grid_dependency_control_launch_dependents()

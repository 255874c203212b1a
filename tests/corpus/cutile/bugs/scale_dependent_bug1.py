# Twin of kernels/v13_4.py scale_dependent with one seeded bug (written for tilesight's tests):
# 1000 elements in tiles of 256, and the store promises with check_bounds=False that every tile
# lies inside out, which the last (elements 768..1023) does not.
import cuda.tile as ct


# tilesight: launch grid=(4,) version=13.4 x=f32[1000] out=f32[1000] alpha=3.0 TILE=256
@ct.kernel
def scale_dependent(x, out, alpha, TILE: ct.Constant[int]):
    ct.grid_dependency_control_wait()
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i,), tile=t * alpha, check_bounds=False)  # BUG: bounds.index error
    ct.grid_dependency_control_launch_dependents()

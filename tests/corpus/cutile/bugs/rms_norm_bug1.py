# Twin of kernels/norms.py rms_norm with one seeded bug.
import cuda.tile as ct


@ct.kernel
def rms_norm(x, w, out, eps, TN: ct.Constant[int]):
    row = ct.bid(0)
    n = x.shape[1]
    # No padding value: the row has 384 elements, the tile 512; the sum of squares takes garbage.
    t = ct.load(x, index=(row, 0), shape=(1, TN))  # BUG: bounds.partial-tile warning
    tw = ct.load(w, index=(0,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)
    ms = ct.sum(t * t, axis=1, keepdims=True) / n
    ct.store(out, index=(row, 0), tile=t * ct.rsqrt(ms + eps) * tw)

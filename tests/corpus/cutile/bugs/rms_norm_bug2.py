# Twin of kernels/norms.py rms_norm with one seeded bug, one that cuTile itself rejects.
import cuda.tile as ct


@ct.kernel
def rms_norm(x, w, out, eps, TN: ct.Constant[int]):
    row = ct.bid(0)
    n = x.shape[1]
    # The tile sized by the run-time row length (tile shapes must be constant powers of two).
    # cuTile: TypeCheckingError: Invalid argument "shape" of load(): Expected a constant integer tuple, but given value is not constant (line 11, col 9-48)
    t = ct.load(x, index=(row, 0), shape=(1, n))  # BUG: cutile-error
    tw = ct.load(w, index=(0,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)
    ms = ct.sum(t * t, axis=1, keepdims=True) / n
    ct.store(out, index=(row, 0), tile=t * ct.rsqrt(ms + eps) * tw)

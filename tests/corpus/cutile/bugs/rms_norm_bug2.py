# Twin of kernels/norms.py rms_norm with one seeded bug, one that cuTile itself rejects.
import cuda.tile as ct


# tilesight: launch grid=(24,) x=f32[24,384] w=f32[384] out=f32[24,384] eps=1e-06 TN=512
@ct.kernel
def rms_norm(x, w, out, eps, TN: ct.Constant[int]):
    row = ct.bid(0)
    n = x.shape[1]
    # The tile sized by the run-time row length (tile shapes must be constant powers of two).
    # cuTile: TypeCheckingError: Invalid argument "shape" of load(): Expected a constant integer tuple, but given value is not constant (line 12, col 9-48)
    t = ct.load(x, index=(row, 0), shape=(1, n))  # BUG: cutile-error
    tw = ct.load(w, index=(0,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)
    ms = ct.sum(t * t, axis=1, keepdims=True) / n
    ct.store(out, index=(row, 0), tile=t * ct.rsqrt(ms + eps) * tw)

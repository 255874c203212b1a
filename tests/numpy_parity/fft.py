"""real/fft.tile: samples/FFT.py fft_kernel, launched as test/bench_fft.py does: batched FFTs of size
64 = 4 * 4 * 4 of complex64 x (8, 64), packed as (8, 2, 64) float32 (view_as_real), with the sample's
DFT matrices W0..W2 and twiddles T0, T1 (f32). Compared: y, with NumPy's FFT of x."""
import numpy as np

from parity import Case, Out, named


def twiddles(rows, cols, factor):
    """exp(-2 pi i I J / factor) as (rows, cols, 2) float32, real and imaginary interleaved."""
    i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    w = np.exp(-2j * np.pi * i * j / factor)
    return np.stack([w.real, w.imag], axis=-1).astype(np.float32)


def cases(rng):
    x = (rng.standard_normal((8, 64)) + 1j * rng.standard_normal((8, 64))).astype(np.complex64)
    packed = np.stack([x.real, x.imag], axis=-1).reshape(8, 2, 64)
    y = np.fft.fft(x.astype(np.complex128), axis=1)
    want = np.stack([y.real, y.imag], axis=-1).reshape(8, 2, 64)
    args = {**named("x", packed, stride="t"), **named("y", np.zeros_like(packed), stride="t")}
    for name, w in (("W0", twiddles(4, 4, 4)), ("W1", twiddles(4, 4, 4)), ("W2", twiddles(4, 4, 4)),
                    ("T0", twiddles(4, 16, 64)), ("T1", twiddles(4, 4, 16))):
        args.update(named(name, w, stride="t"))
    # Each output sums 64 terms x_n w^(nk) of modulus |x_n| through three f32 stages (4-term
    # products, f32 twiddles): 1e-6 of the sum of |x_n| in its row.
    tol = np.repeat(1e-6 * np.abs(x).sum(axis=1), 128).reshape(8, 2, 64)
    yield Case(file="real/fft.tile", grid=(4, 1, 1), args=args, expect={"y": Out(want, rtol=0, atol=tol)})

"""What a NumPy parity case is made of (issue 14, acceptance 3; docs/numpy_parity.md).

A reference module of this folder (one per kernel file of tests/corpus) defines
`cases(rng)`, yielding `Case`s: the tile program, its launch, the arguments as NumPy
arrays and numbers, and the expected contents of the output buffers, computed with
NumPy the way the cuTile source computes them. scripts/numpy_parity.py runs each case
with `tilesight run` (.npy in, `--out` .npy back) and compares.

Element types NumPy lacks travel as raw bits (DESIGN §3): bf16 as uint16, tf32 as
uint32, the 8-bit floats as uint8, f4E2M1FN two to a byte (low nibble first). The
helpers below convert between those bits and float values.
"""
from dataclasses import dataclass, field
from typing import Dict, Optional, Tuple, Union

import numpy as np


# --- element formats NumPy lacks ---------------------------------------------------

def bf16_bits(x):
    """float32 values -> bf16 bits (uint16), round to nearest even; NaN stays NaN."""
    b = np.atleast_1d(np.asarray(x, dtype=np.float32)).view(np.uint32).astype(np.uint64)
    rounded = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16).reshape(np.shape(x))
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    return np.where(nan, np.uint16(0x7FC0), rounded).astype(np.uint16)


def bf16_value(bits):
    """bf16 bits (uint16) -> float32 values (exact)."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def bf16_round(x):
    """float32 values rounded to bf16, as float32."""
    return bf16_value(bf16_bits(x))


def tf32_value(bits):
    """tf32 bits (uint32, the low 13 mantissa bits zero) -> float32 values."""
    return (np.asarray(bits, dtype=np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def _f8e4m3fn_table():
    out = np.empty(256, dtype=np.float64)
    for b in range(256):
        sign = -1.0 if b & 0x80 else 1.0
        e, m = (b >> 3) & 0xF, b & 7
        if e == 0xF and m == 7:
            out[b] = np.nan
        elif e == 0:
            out[b] = sign * m / 8 * 2.0 ** -6
        else:
            out[b] = sign * (1 + m / 8) * 2.0 ** (e - 7)
    return out


F8E4M3FN = _f8e4m3fn_table()
# f8E8M0FNU: an exponent alone, 2^(b - 127); 0xFF is NaN.
F8E8M0FNU = np.array([2.0 ** (b - 127) if b != 0xFF else np.nan for b in range(256)])
# f4E2M1FN: sign, 2 exponent bits, 1 mantissa bit.
F4E2M1FN = np.array([s * v for s in (1.0, -1.0) for v in (0, 0.5, 1, 1.5, 2, 3, 4, 6)])


def matmul(a, b, tf32=False):
    """(a @ b exactly, a bound on an f32 accumulation's error) for float arrays whose last two
    dimensions multiply; tf32: the operands rounded to tf32 first (cuTile's astype(tfloat32)).
    Products of f16, bf16 and tf32 values are exact in f32; k of them summed in f32 in any order
    stay within 2^-24 * k * sum |a_ik b_kj| of the exact sum."""
    if tf32:
        a, b = tf32_round(a), tf32_round(b)
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a @ b, 2.0 ** -24 * a.shape[-1] * (np.abs(a) @ np.abs(b))


# --- arguments as cuTile flattens an array -------------------------------------------

def strides_of(a):
    """An array's strides in elements (C order, or column-major for a Fortran-order array)."""
    return [st // a.itemsize for st in a.strides]


def named(name, a, stride="st"):
    """{name: a, name_s0: shape 0, ..., name_st0: stride 0, ...}: a kernel whose arguments are named."""
    out = {name: a}
    out.update({f"{name}_s{i}": n for i, n in enumerate(a.shape)})
    out.update({f"{name}_{stride}{i}": st for i, st in enumerate(strides_of(a))})
    return out


def positional(first, a):
    """{"first": a, then its shape, then its strides}: a dump's numbered arguments."""
    words = [a] + list(a.shape) + strides_of(a)
    return {str(first + i): w for i, w in enumerate(words)}


# --- cases ---------------------------------------------------------------------------

@dataclass
class Out:
    """The expected contents of one output buffer.

    value: the expected values (any float or integer array; raw-bit formats as values).
    fmt: how to read the buffer `tilesight run` writes: a NumPy dtype name, or
         "bf16" / "tf32" (raw bits decoded to values).
    exact: compare bit for bit (NaN equal to NaN); otherwise within
    rtol/atol: |actual - expected| <= atol + rtol * |expected|; atol may be an array of
    value's shape, a bound per element (e.g. from |A| @ |B| for a matrix product).
    """
    value: np.ndarray
    fmt: str = "float32"
    exact: bool = False
    rtol: float = 1e-5
    atol: float = 1e-5
    # Elements not compared (e.g. left unspecified by the kernel): a boolean mask of
    # the elements that are, or None for all.
    where: Optional[np.ndarray] = None


Scalar = Union[int, float]


@dataclass
class Case:
    file: str                       # relative to tests/corpus
    grid: Tuple[int, int, int]
    args: Dict[str, Union[np.ndarray, Scalar, list]]   # a list: cuTile's list of arrays
    expect: Dict[str, Out]          # argument name (or NAME[K], an item of a list) -> expected contents
    name: str = ""                  # shown in the table; defaults to the file's stem
    entry: Optional[str] = None
    chunk: Optional[int] = None     # for files of several `// -----` chunks: which one (from 1)
    printed: Optional[str] = None   # what print_tko prints, exactly (None: not compared)
    fault: Optional[str] = None     # the run must stop with a run.fault whose message contains this
    extra: Tuple[str, ...] = field(default_factory=tuple)   # more `tilesight run` options
    # On a GPU device, also compare with the CPU reference (--check); False where the result
    # depends on the order blocks run in (float sums under a lock), so only NumPy's bound holds.
    check: bool = True


def tf32_round(x):
    """float32 values rounded to tf32 (10 mantissa bits), nearest even, as float32."""
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = ((b + 0xFFF + ((b >> 13) & 1)) & 0xFFFFE000).astype(np.uint32).view(np.float32)
    return np.where(np.isfinite(x), r, np.asarray(x, dtype=np.float32))


def decode(buffer, fmt):
    """The values a buffer read back from a .npy file holds, as float64 or int64."""
    if fmt == "bf16":
        return bf16_value(buffer).astype(np.float64)
    if fmt == "tf32":
        return tf32_value(buffer).astype(np.float64)
    a = np.asarray(buffer)
    return a.astype(np.int64) if a.dtype.kind in "iub" else a.astype(np.float64)

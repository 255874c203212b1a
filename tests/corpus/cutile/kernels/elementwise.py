# Elementwise kernels: the first things people write with cuTile.
import cuda.tile as ct


# tilesight: launch grid=(16,) a=f32[4096] b=f32[4096] out=f32[4096] TILE=256
@ct.kernel
def vec_add(a, b, out, TILE: ct.Constant[int]):
    # One block per tile of TILE elements; the launch uses exactly len(a) / TILE blocks.
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(TILE,))
    y = ct.load(b, index=(i,), shape=(TILE,))
    ct.store(out, index=(i,), tile=x + y)


# tilesight: launch grid=(12,) x=f32[3000] y=f32[3000] out=f32[3000] alpha=2.5 TILE=256
@ct.kernel
def saxpy(x, y, out, alpha, TILE: ct.Constant[int]):
    # len(x) need not be a multiple of TILE: the last tile is padded with zeros on load and
    # the store drops the elements past the end. Grid: cdiv(n, TILE).
    i = ct.bid(0)
    tx = ct.load(x, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ty = ct.load(y, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i,), tile=alpha * tx + ty)


# tilesight: launch grid=(3,5) x=f32[96,160] out=f32[96,160] TM=32 TN=32
@ct.kernel
def relu2d(x, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    # 2D grid: (rows / TM, cols / TN); both divide the array exactly.
    bm = ct.bid(0)
    bn = ct.bid(1)
    t = ct.load(x, index=(bm, bn), shape=(TM, TN))
    ct.store(out, index=(bm, bn), tile=ct.maximum(t, 0.0))


# tilesight: launch grid=(16,) x=f16[2048] out=f16[2048] TILE=128
@ct.kernel
def gelu_f16(x, out, TILE: ct.Constant[int]):
    # fp16 in and out, the math in fp32 (tanh approximation of GELU).
    i = ct.bid(0)
    v = ct.load(x, index=(i,), shape=(TILE,)).astype(ct.float32)
    inner = 0.7978845608 * (v + 0.044715 * v * v * v)
    g = 0.5 * v * (1.0 + ct.tanh(inner))
    ct.store(out, index=(i,), tile=g.astype(ct.float16))


# tilesight: launch grid=(8,) x=f32[2048] q=i8[2048] inv_scale=50.0 TILE=256
@ct.kernel
def quantize_i8(x, q, inv_scale, TILE: ct.Constant[int]):
    # Symmetric int8 quantization: round half up, clamp to [-127, 127].
    i = ct.bid(0)
    v = ct.load(x, index=(i,), shape=(TILE,))
    r = ct.floor(v * inv_scale + 0.5)
    r = ct.minimum(ct.maximum(r, -127.0), 127.0)
    ct.store(q, index=(i,), tile=r.astype(ct.int8))

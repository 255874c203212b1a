import numpy as np

U = 'uniform(-1,1)'
SPEC = {
    'vec_add': {'inputs': {'a': U, 'b': U}, 'outputs': ['out'], 'tol': 'exact'},
    # alpha * x + y may be fused into one FMA
    'saxpy': {'inputs': {'x': U, 'y': U}, 'outputs': ['out'], 'tol': {'rtol': 1e-6, 'atol': 1e-6}},
    'relu2d': {'inputs': {'x': U}, 'outputs': ['out'], 'tol': 'exact'},
    # fp16 output, tanh in fp32 may be an approximation
    'gelu_f16': {'inputs': {'x': 'uniform(-4,4)'}, 'outputs': ['out'],
                 'tol': {'rtol': 2e-3, 'atol': 2e-3}},
    # x * inv_scale + 0.5 may be one FMA: a value at a rounding boundary can go one step either way
    'quantize_i8': {'inputs': {'x': 'uniform(-3,3)'}, 'outputs': ['q'], 'tol': {'rtol': 0, 'atol': 1}},
}


def vec_add(a, b, out, TILE):
    return {'out': a + b}


def saxpy(x, y, out, alpha, TILE):
    return {'out': np.float32(alpha) * x + y}


def relu2d(x, out, TM, TN):
    return {'out': np.maximum(x, np.float32(0))}


def gelu_f16(x, out, TILE):
    v = x.astype(np.float32)
    inner = np.float32(0.7978845608) * (v + np.float32(0.044715) * v * v * v)
    return {'out': (np.float32(0.5) * v * (1 + np.tanh(inner))).astype(np.float16)}


def quantize_i8(x, q, inv_scale, TILE):
    r = np.floor(x * np.float32(inv_scale) + np.float32(0.5))
    return {'q': np.clip(r, -127, 127).astype(np.int8)}

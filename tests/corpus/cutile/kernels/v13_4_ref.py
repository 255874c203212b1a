import numpy as np

SPEC = {
    # float32 sums in tile order, not NumPy's pairwise order
    'row_variance': {'inputs': {'x': 'uniform(-2,2)'}, 'outputs': ['out'], 'tol': {'rtol': 1e-5, 'atol': 1e-6}},
    'join_halves': {'inputs': {'a': 'uniform(-1,1)', 'b': 'uniform(-1,1)'}, 'outputs': ['out'], 'tol': 'exact'},
    'scale_dependent': {'inputs': {'x': 'uniform(-1,1)'}, 'outputs': ['out'], 'tol': 'exact'},
}


def row_variance(x, out, TN):
    x64 = x.astype(np.float64)
    return {'out': ((x64 - x64.mean(axis=1, keepdims=True)) ** 2).mean(axis=1).astype(np.float32)}


def join_halves(a, b, out, T, T2):
    return {'out': np.stack([a.reshape(-1, T), b.reshape(-1, T)], axis=1).reshape(-1)}


def scale_dependent(x, out, alpha, TILE):
    return {'out': (x * np.float32(alpha)).astype(np.float32)}

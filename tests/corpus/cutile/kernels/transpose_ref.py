import numpy as np

SPEC = {
    'transpose_tile': {'inputs': {'x': 'uniform(-1,1)'}, 'outputs': ['out'], 'tol': 'exact'},
    'transpose_order': {'inputs': {'x': 'uniform(-1,1)'}, 'outputs': ['out'], 'tol': 'exact'},
}


def transpose_tile(x, out, T):
    return {'out': np.ascontiguousarray(x.T)}


def transpose_order(x, out, TM, TN):
    return {'out': np.ascontiguousarray(x.T)}

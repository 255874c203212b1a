import numpy as np

SPEC = {
    # rsqrt may be approximate
    'layer_norm': {'inputs': {'x': 'uniform(-2,2)', 'w': 'uniform(0.5,1.5)', 'b': 'uniform(-1,1)'},
                   'outputs': ['out'], 'tol': {'rtol': 1e-4, 'atol': 1e-4}},
    'rms_norm': {'inputs': {'x': 'uniform(-2,2)', 'w': 'uniform(0.5,1.5)'},
                 'outputs': ['out'], 'tol': {'rtol': 1e-4, 'atol': 1e-4}},
}


def layer_norm(x, w, b, out, eps, TN):
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
    return {'out': ((x64 - mean) / np.sqrt(var + float(eps)) * w + b).astype(np.float32)}


def rms_norm(x, w, out, eps, TN):
    x64 = x.astype(np.float64)
    ms = (x64 * x64).mean(axis=1, keepdims=True)
    return {'out': (x64 / np.sqrt(ms + float(eps)) * w).astype(np.float32)}

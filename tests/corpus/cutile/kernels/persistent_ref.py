import numpy as np

U = 'uniform(-1,1)'
SPEC = {
    'persistent_scale': {'inputs': {'x': U}, 'outputs': ['out'], 'tol': 'exact'},
    'persistent_matmul': {'inputs': {'A': U, 'B': U}, 'outputs': ['C'],
                          'tol': {'rtol': 1e-3, 'atol': 1e-3}},
    # x * x + 1 may be one FMA. counter afterwards: every tile claimed once plus one failed
    # claim per block (the launch's grid is needed: 6 blocks).
    'dynamic_queue': {'inputs': {'x': U}, 'outputs': ['out', 'counter'],
                   'tol': {'rtol': 1e-6, 'atol': 1e-6}},
}
DYNAMIC_QUEUE_BLOCKS = 6


def persistent_scale(x, out, alpha, TILE):
    return {'out': x * np.float32(alpha)}


def persistent_matmul(A, B, C, TM, TN, TK):
    return {'C': np.matmul(A.astype(np.float64), B.astype(np.float64)).astype(np.float32)}


def dynamic_queue(x, out, counter, TILE):
    ntiles = -(-x.shape[0] // TILE)
    return {'out': x * x + np.float32(1),
            'counter': counter + np.int32(ntiles + DYNAMIC_QUEUE_BLOCKS)}

import numpy as np

SPEC = {
    'cumsum_single_block': {'inputs': {'x': 'randint(-100,100)'}, 'outputs': ['y'], 'tol': 'exact'},
    'scan_rows': {'inputs': {'x': 'uniform(-1,1)'}, 'outputs': ['y'], 'tol': {'rtol': 1e-5, 'atol': 1e-4}},
    # flags all 1 and partial[b] the inclusive prefix of block b afterwards
    'chained_scan': {'inputs': {'x': 'randint(-100,100)'}, 'outputs': ['y', 'flags', 'partial'],
                     'tol': 'exact'},
    'cummax_rows': {'inputs': {'x': 'uniform(-1,1)'}, 'outputs': ['y'], 'tol': 'exact'},
}


def cumsum_single_block(x, y, TILE):
    return {'y': np.cumsum(x, dtype=np.int64).astype(np.int32)}


def scan_rows(x, y, TM, TN):
    return {'y': np.cumsum(x.astype(np.float64), axis=1).astype(np.float32)}


def chained_scan(x, y, flags, partial, TILE):
    c = np.cumsum(x, dtype=np.int64).astype(np.int32)
    return {'y': c, 'flags': np.ones_like(flags), 'partial': c[TILE - 1::TILE].copy()}


def cummax_rows(x, y, TM, TN):
    return {'y': np.maximum.accumulate(x, axis=1)}

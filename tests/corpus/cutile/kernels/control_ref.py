import numpy as np

SPEC = {
    'first_above': {'inputs': {'x': 'uniform(-1,1)'}, 'outputs': ['found'], 'tol': 'exact'},
    'block_sparse_mv': {'inputs': {'A': 'uniform(-1,1)', 'nz': 'randint(0,2)', 'x': 'uniform(-1,1)'},
                        'outputs': ['y'], 'tol': {'rtol': 1e-5, 'atol': 1e-5}},
    'guarded_tail': {'inputs': {'x': 'uniform(-1,1)'}, 'outputs': ['out'], 'tol': 'exact'},
}


def first_above(x, found, thresh, SEG, TILE):
    r = np.full(found.shape, -1, dtype=np.int32)
    for b in range(found.shape[0]):
        hits = np.nonzero(x[b * SEG:(b + 1) * SEG] > thresh)[0]
        if hits.size:
            r[b] = b * SEG + hits[0]
    return {'found': r}


def block_sparse_mv(A, nz, x, y, TM, TN):
    mask = np.kron(nz, np.ones((TM, TN), dtype=np.int32)).astype(bool)
    return {'y': (np.where(mask, A, 0).astype(np.float64) @ x).astype(np.float32)}


def guarded_tail(x, out, TILE):
    return {'out': np.abs(x)}

import numpy as np

U = 'uniform(-1,1)'
TOL = {'rtol': 1e-3, 'atol': 1e-3}   # the splits add in any order (splitk_serial: in order)
SPEC = {
    'splitk_atomic': {'inputs': {'A': U, 'B': U}, 'outputs': ['C'], 'tol': TOL},
    # locks back at 0 afterwards
    'splitk_locked': {'inputs': {'A': U, 'B': U}, 'outputs': ['C', 'locks'], 'tol': TOL},
    # turn at SPLITS afterwards
    'splitk_serial': {'inputs': {'A': U, 'B': U}, 'outputs': ['C', 'turn'], 'tol': TOL},
}


def _mm(A, B, C):
    return (C + np.matmul(A.astype(np.float64), B.astype(np.float64))).astype(np.float32)


def splitk_atomic(A, B, C, TM, TN, TK, SPLITS):
    return {'C': _mm(A, B, C)}


def splitk_locked(A, B, C, locks, TM, TN, TK, SPLITS):
    return {'C': _mm(A, B, C), 'locks': np.zeros_like(locks)}


def splitk_serial(A, B, C, turn, TM, TN, TK, SPLITS):
    return {'C': _mm(A, B, C), 'turn': np.full_like(turn, SPLITS)}

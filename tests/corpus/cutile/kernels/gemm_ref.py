import numpy as np

U = 'uniform(-1,1)'
SPEC = {
    # products of fp16/bf16 values are exact in fp32; the summation order differs
    'matmul': {'inputs': {'A': U, 'B': U}, 'outputs': ['C'], 'tol': {'rtol': 1e-3, 'atol': 1e-3}},
    # fp16 output: one fp16 rounding step
    'matmul_grouped': {'inputs': {'A': U, 'B': U}, 'outputs': ['C'],
                       'tol': {'rtol': 2e-3, 'atol': 4e-3}},
    # fp32 inputs: the MMA may run at tf32 precision
    'batched_matmul': {'inputs': {'A': U, 'B': U}, 'outputs': ['C'],
                       'tol': {'rtol': 1e-2, 'atol': 2e-2}},
    'linear_bias_relu': {'inputs': {'X': U, 'W': U, 'bias': U}, 'outputs': ['Y'],
                         'tol': {'rtol': 1e-3, 'atol': 1e-3}},
}


def _mm(a, b):
    return np.matmul(a.astype(np.float64), b.astype(np.float64))


def matmul(A, B, C, TM, TN, TK):
    return {'C': _mm(A, B).astype(np.float32)}


def matmul_grouped(A, B, C, TM, TN, TK, GROUP_M):
    return {'C': _mm(A, B).astype(np.float32).astype(np.float16)}


def batched_matmul(A, B, C, TM, TN, TK):
    return {'C': _mm(A, B).astype(np.float32)}


def linear_bias_relu(X, W, bias, Y, TM, TN, TK):
    return {'Y': np.maximum(_mm(X, W.T) + bias, 0).astype(np.float32)}

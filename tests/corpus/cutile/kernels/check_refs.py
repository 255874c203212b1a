"""Self-test of the references (no GPU): every kernel of manifest.txt has a reference that runs
on its launch's inputs and returns arrays of the outputs' shapes and dtypes.
    python3 check_refs.py"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common_ref  # noqa: E402

n = 0
with open(os.path.join(common_ref.HERE, '..', 'manifest.txt')) as f:
    for line in f:
        parts = line.split()
        if not parts or parts[0] != 'kernel':
            continue
        name = os.path.basename(parts[1])[:-3]
        kernel = parts[2]
        args, expected, tol = common_ref.reference(name, kernel)
        for out, v in expected.items():
            assert isinstance(v, np.ndarray), (kernel, out)
            assert v.shape == args[out].shape and v.dtype == args[out].dtype, \
                (kernel, out, v.shape, v.dtype, args[out].shape, args[out].dtype)
            assert np.all(np.isfinite(v.astype(np.float64))), (kernel, out)
        n += 1
print(f'{n} references ok')

"""Inputs for the corpus kernels and the plumbing of their NumPy references.

Every kernel file NAME.py has NAME_ref.py with, for each kernel:
  SPEC[kernel] = {"inputs": {param: generator}, "outputs": [params], "tol": "exact" or
                  {"rtol": r, "atol": a}}
  def kernel(**args) -> {output param: expected array}
The arguments of a launch (NAME.KERNEL.launch.json) are made by generate(): arrays in the order
of the launch's args from numpy.random.default_rng(0) with the generator SPEC names for them
("zeros" when none is named: outputs, locks, counters, flags); run-time scalars as NumPy
scalars of their dtype with the launch's value; constants as given.
Generators: "uniform(lo,hi)" (floats in [lo, hi), then cast to the array's dtype),
"randint(lo,hi)" (integers in [lo, hi)), "permutation" (of range(len)), "zeros".
bf16 arrays are NumPy float32 arrays whose values are rounded (to nearest even) to bf16.
A reference gets every argument (arrays at their values before the launch) and returns the
arrays the kernel writes, as they must be after it.
"""
import importlib
import json
import os
import re

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPES = {'f16': np.float16, 'bf16': np.float32, 'f32': np.float32, 'f64': np.float64,
          'i8': np.int8, 'i16': np.int16, 'i32': np.int32, 'i64': np.int64, 'u8': np.uint8,
          'u16': np.uint16, 'u32': np.uint32, 'u64': np.uint64, 'bool': np.bool_}


def to_bf16(a):
    """Rounds float32 values to the nearest bf16 value (ties to even), kept as float32."""
    b = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) & 0xFFFF0000
    return b.astype(np.uint32).view(np.float32)


def _make(rng, gen, dtype, shape):
    if gen == 'zeros':
        return np.zeros(shape, dtype=DTYPES[dtype])
    if gen == 'permutation':
        return rng.permutation(shape[0]).astype(DTYPES[dtype])
    m = re.fullmatch(r'(uniform|randint)\(([-0-9.e]+),([-0-9.e]+)\)', gen)
    if not m:
        raise ValueError(f'unknown generator {gen!r}')
    lo, hi = float(m.group(2)), float(m.group(3))
    if m.group(1) == 'uniform':
        v = rng.uniform(lo, hi, size=shape).astype(np.float32)
        return to_bf16(v) if dtype == 'bf16' else v.astype(DTYPES[dtype])
    return rng.integers(int(lo), int(hi), size=shape).astype(DTYPES[dtype])


def generate(launch, spec, seed=0):
    rng = np.random.default_rng(seed)
    args = {}
    for a in launch['args']:
        name = a['param']
        if a['kind'] == 'array':
            args[name] = _make(rng, spec['inputs'].get(name, 'zeros'), a['dtype'], a['shape'])
        elif a['kind'] == 'scalar':
            args[name] = DTYPES[a['dtype']](a['value'])
        elif a['kind'] == 'constant':
            args[name] = a['value']
        else:
            raise ValueError(f'argument kind {a["kind"]} not used in this corpus')
    return args


def reference(name, kernel, seed=0):
    """(arguments, expected outputs, tolerance) of kernel KERNEL of NAME.py at its launch."""
    with open(os.path.join(HERE, f'{name}.{kernel}.launch.json')) as f:
        launch = json.load(f)
    mod = importlib.import_module(f'{name}_ref')
    spec = mod.SPEC[kernel]
    args = generate(launch, spec, seed)
    expected = getattr(mod, kernel)(**{k: (v.copy() if isinstance(v, np.ndarray) else v)
                                        for k, v in args.items()})
    assert sorted(expected) == sorted(spec['outputs']), (kernel, sorted(expected))
    return args, expected, spec['tol']


def matches(actual, expected, tol):
    if tol == 'exact':
        return np.array_equal(actual, expected)
    return np.allclose(np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64),
                       rtol=tol['rtol'], atol=tol['atol'])

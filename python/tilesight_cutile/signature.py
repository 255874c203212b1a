"""A launch's arguments as cuTile sees them, the kernel signature cuTile compiles for them, and
the launch file's "args". Shared by the launch directives (compile.py) and the recorder
(record.py), so both assume exactly the same about an argument.

Every assumption handed to the compiler holds for the argument described (tilesight's checks
trust them); the rules are those of cuTile's dispatcher (cext/tile_kernel.cpp), which may assume
more (it says no array aliases another; here arrays whose memory overlaps share an alias group).
"""
import math
from dataclasses import dataclass

from . import dtypes

TMA_MAX_NDIM = 5  # cuTile infers stride and shape facts only for arrays of this rank or less


class ArgumentError(Exception):
    """An argument cuTile cannot take for its parameter (the message says which and why)."""


@dataclass
class Array:
    dtype: str        # a short name (f32)
    shape: list
    strides: list     # in elements
    address: int = 0  # the base pointer (directives: 0, an allocator's alignment)

    def span(self):
        """[first, last] byte addresses the elements occupy (None when there are none)."""
        if 0 in self.shape:
            return None
        size = dtypes.bits(self.dtype) // 8
        lo = hi = self.address
        for extent, stride in zip(self.shape, self.strides):
            reach = (extent - 1) * stride * size
            lo, hi = (lo + reach, hi) if reach < 0 else (lo, hi + reach)
        return lo, hi + size - 1


@dataclass
class Arg:
    kind: str                # array, list, scalar, constant
    arrays: list = None      # array: one Array; list: its items
    dtype: str = None        # scalar
    value: object = None     # scalar, constant


@dataclass
class Annotation:
    """What a kernel parameter's annotation tells the dispatcher."""
    constant: bool = False
    int_bits: int = 32            # a Python int argument's width (ct.ScalarAnnotation)
    index_bits: int = 32          # an array's shape and stride width (ct.ArrayAnnotation)
    static_shape_dims: tuple = ()
    static_stride_dims: tuple = ()
    aggregate: bool = False       # a tuple or dataclass: not supported here
    python_type: type = None      # int, float or bool when annotated so (ct.Constant[int] too)
    scalar_annotated: bool = False  # ct.ScalarInt64 and the like: cuTile takes integers only


def contiguous_strides(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return strides[::-1]


def annotations(kern):
    """{parameter: Annotation} of cuTile kernel `kern`, from cuTile's own reading of the
    annotations where it has one (parameter_annotations), else from ct.Constant hints."""
    ann = kern._annotated_function
    names = list(_signature_names(ann.pyfunc))
    nodes = getattr(ann, 'parameter_annotations', None)
    types = _python_types(ann.pyfunc)
    if nodes is None:
        return {n: Annotation(constant=c, python_type=types.get(n))
                for n, c in zip(names, _constant_hints(ann.pyfunc))}
    out = {}
    for name, node in zip(names, nodes):
        if getattr(node, 'KIND', 'leaf') != 'leaf':
            out[name] = Annotation(aggregate=True)
            continue
        a = Annotation(constant=bool(node.constant), python_type=types.get(name))
        if node.scalar is not None:
            a.int_bits = _index_bits(node.scalar.dtype)
            a.python_type, a.scalar_annotated = int, True
        array = node.array if node.array is not None else getattr(node.list, 'element', None)
        if array is not None:
            a.index_bits = _index_bits(array.index_dtype)
            a.static_shape_dims = tuple(getattr(array, 'static_shape_dims', ()))
            a.static_stride_dims = tuple(getattr(array, 'static_stride_dims', ()))
        out[name] = a
    return out


def _python_types(pyfunc):
    """{parameter: int, float or bool} of the parameters annotated with one of them, alone or
    inside Annotated (ct.Constant[int], ct.ScalarInt64). cuTile itself ignores them."""
    import typing
    try:
        hints = typing.get_type_hints(pyfunc, include_extras=True)
    except Exception:  # an annotation that does not resolve: cuTile says so when it compiles
        return {}
    out = {}
    for name, hint in hints.items():
        if typing.get_origin(hint) is typing.Annotated:
            hint = typing.get_args(hint)[0]
        if hint in (int, float, bool):
            out[name] = hint
    return out


def _index_bits(dtype):
    return 64 if getattr(dtype, 'name', '') == 'int64' else 32


def _signature_names(pyfunc):
    import inspect
    return inspect.signature(pyfunc).parameters


def _constant_hints(pyfunc):
    import typing
    from cuda.tile._stub import ConstantAnnotation
    hints = typing.get_type_hints(pyfunc, include_extras=True)
    for name in _signature_names(pyfunc):
        meta = getattr(hints.get(name), '__metadata__', ())
        yield any(isinstance(m, ConstantAnnotation) for m in meta)


def scalar_of_python(param, value, ann):
    """The scalar cuTile makes of Python value `value` for a non-constant parameter."""
    if isinstance(value, bool):
        return Arg('scalar', dtype='bool', value=value)
    if isinstance(value, int):
        short = 'i64' if ann.int_bits == 64 else 'i32'
        lo, hi = dtypes.int_range(short)
        if not lo <= value <= hi:
            raise ArgumentError(f"{param}={value} does not fit in {short}, the type cuTile gives an "
                                f"int for {param}" + ('' if short == 'i64' else
                                                      ' (annotate it ct.ScalarInt64 for i64)'))
        return Arg('scalar', dtype=short, value=value)
    if isinstance(value, float):
        return Arg('scalar', dtype='f32', value=value)
    raise ArgumentError(f'{param}: cuTile takes no {type(value).__name__} here')


def _facts(arrays, ann):
    """Per dimension, what holds for every array of `arrays` (one, or a list's items)."""
    first = arrays[0]
    ndim, size = len(first.shape), dtypes.bits(first.dtype) // 8
    static_strides = [d % ndim for d in ann.static_stride_dims] if ndim else []
    static_shapes = [d % ndim for d in ann.static_shape_dims] if ndim else []
    small = ndim <= TMA_MAX_NDIM
    per_array = 16 // size if 16 % size == 0 else 1
    f = {'stride_constant': [], 'shape_constant': [], 'stride_divisible_by': [],
         'shape_divisible_by': [], 'stride_lower_bound_incl': []}
    for d in range(ndim):
        strides = {a.strides[d] for a in arrays}
        shapes = {a.shape[d] for a in arrays}
        if d in static_strides:
            f['stride_constant'].append(_agree(strides, 'stride', d))
        else:
            f['stride_constant'].append(1 if small and not static_strides and strides == {1} else None)
        f['shape_constant'].append(_agree(shapes, 'shape', d) if d in static_shapes else None)
        f['stride_divisible_by'].append(
            per_array if small and all((s * size) % 16 == 0 for s in strides) else 1)
        f['shape_divisible_by'].append(16 if small and all(x % 16 == 0 for x in shapes) else 1)
        f['stride_lower_bound_incl'].append(0 if all(s >= 0 for s in strides) else None)
    f['base_addr_divisible_by'] = 16 if all(a.address % 16 == 0 for a in arrays) else 1
    f['may_alias_internally'] = not all(_disjoint(a) for a in arrays)
    return f


def _agree(values, what, d):
    if len(values) != 1:
        raise ArgumentError(f'the arrays of a list differ in {what} {d}, which the annotation '
                            'makes a compile-time constant')
    return next(iter(values))


def _disjoint(a):
    """No two in-bounds indices of `a` reach the same element (cuTile's test)."""
    pairs = sorted(zip(a.strides, a.shape))
    if not pairs:
        return True
    ok = pairs[0][0] > 0
    for (stride, extent), (next_stride, _) in zip(pairs, pairs[1:]):
        ok = ok and next_stride > 0 and next_stride >= stride * extent
    return ok


def _array_constraint(ct, C, arrays, ann, groups):
    """(ArrayConstraint, whether it has constant shapes, which need calling convention v2)."""
    f = _facts(arrays, ann)
    static = any(x is not None for x in f['shape_constant'])
    if not static:
        del f['shape_constant']  # cuTile releases before static shapes have no such argument
    index = ct.int64 if ann.index_bits == 64 else ct.int32
    return C.ArrayConstraint(_cutile_dtype(ct, arrays[0].dtype), len(arrays[0].shape),
                             index_dtype=index, alias_groups=groups, **f), static


def _cutile_dtype(ct, short):
    dtype = dtypes.cutile_dtype(ct, short)
    if dtype is None:
        raise ArgumentError(f'this cuTile ({getattr(ct, "__version__", "?")}) has no '
                            f'{dtypes.DTYPES[short][1]} ({short})')
    return dtype


def _overlapping(args):
    """{(argument index, item index)} of the arrays whose memory overlaps that of another
    argument (the same array passed twice, views of one buffer). They all share one alias group:
    a permission to alias, true if broader than needed (cuTile 1.x's symbol demangler rejects
    some patterns of several groups)."""
    spans = [((i, j), a.span()) for i, arg in enumerate(args) if arg.kind in ('array', 'list')
             for j, a in enumerate(arg.arrays)]
    spans = [(key, s) for key, s in spans if s is not None]
    out = set()
    for n, (key, (lo, hi)) in enumerate(spans):
        for key2, (lo2, hi2) in spans[n + 1:]:
            if key[0] != key2[0] and lo <= hi2 and lo2 <= hi:
                out.update((key, key2))
    return out


def build(kern, params, args, annots):
    """(KernelSignature, launch file "args") for arguments `args` (Arg, by parameter)."""
    import cuda.tile as ct
    from cuda.tile import compilation as C
    overlapping = _overlapping(args)
    constraints, described, needs_v2 = [], [], False
    for i, (param, arg) in enumerate(zip(params, args)):
        ann = annots[param]
        if arg.kind in ('array', 'list'):
            # A list's items share one constraint. The list's own storage is cuTile's, aliasing
            # nothing; its items may alias each other.
            shared = any((i, j) in overlapping for j in range(len(arg.arrays)))
            names = ('overlap',) if shared else ()
            c, static = _array_constraint(ct, C, arg.arrays, ann, names)
            needs_v2 |= static
            if arg.kind == 'list':
                c = C.ListConstraint(c, alias_groups=(), elements_may_alias=True)
            constraints.append(c)
        elif arg.kind == 'scalar':
            constraints.append(C.ScalarConstraint(_cutile_dtype(ct, arg.dtype)))
        else:
            constraints.append(arg.value)  # a plain value is a constant's constraint
        described.append(launch_arg(param, arg))
        if arg.kind in ('array', 'list') and any((i, j) in overlapping for j in range(len(arg.arrays))):
            described[-1]['may_alias'] = True  # its memory overlaps another argument's
    conv = C.CallingConvention.cutile_python_v2() if needs_v2 else C.CallingConvention.cutile_python_v1()
    return C.KernelSignature(constraints, conv), described


def _array_json(a):
    return {'kind': 'array', 'dtype': a.dtype, 'shape': list(a.shape), 'strides': list(a.strides)}


def _json_number(value):
    """A scalar's value as launch files hold it: bools as 0/1 (the launch file wants a number);
    infinities and NaN have no JSON number."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise ArgumentError(f'{value} has no JSON number: launch files hold finite scalars only')
    return value


def launch_arg(param, arg):
    if arg.kind == 'array':
        out = _array_json(arg.arrays[0])
    elif arg.kind == 'list':
        out = {'kind': 'list', 'items': [_array_json(a) for a in arg.arrays]}
    elif arg.kind == 'scalar':
        try:
            out = {'kind': 'scalar', 'dtype': arg.dtype, 'value': _json_number(arg.value)}
        except ArgumentError as e:
            raise ArgumentError(f'{param}: {e}') from None
    else:
        value = arg.value
        if isinstance(value, float) and not math.isfinite(value):
            value = repr(value)  # constants' values are for people: cuTile folded them in
        elif not isinstance(value, (bool, int, float, str)) and value is not None:
            value = repr(value)
        out = {'kind': 'constant', 'value': value}
    out['param'] = param
    return out

"""`compile FILE.py --out DIR`: every launch directive of a kernel file compiled to DIR/
KERNEL.LLINE.tilebc with its launch file KERNEL.LLINE.launch.json, and DIR/index.json listing
them and the diagnostics (docs/cutile.md "The package"). `--out -` writes no file: the index goes
to standard output with each launch's bytecode (base64) and launch file inline."""
import base64
import json
import os

from . import directives as D
from . import signature as S
from .compiler import (compile_bytecode, debug_paths, import_error_diagnostic,
                       prefix_remapper, tile_error_diagnostic)
from .hoststubs import import_file


def write_atomically(path, data):
    """Writes `data` (bytes or str) so that a reader never sees half a file."""
    tmp = f'{path}.tmp{os.getpid()}'
    with open(tmp, 'wb' if isinstance(data, bytes) else 'w', encoding=None if isinstance(data, bytes) else 'utf-8') as f:
        f.write(data)
    os.replace(tmp, path)


# Where a directive's arrays are taken to start: each its own allocation (2^40 bytes apart, so
# none overlaps another), 16-byte aligned as allocators align.
ALLOCATION_STRIDE = 1 << 40


def directive_args(d, annots):
    """The Args of directive `d`'s values, by parameter, as cuTile would take such arguments
    for the parameters' annotations; raises DirectiveError at the offending value."""
    out = []
    for param, v in d.args.items():
        try:
            out.append(_arg(param, v, annots[param], len(out)))
        except S.ArgumentError as e:
            raise D.DirectiveError(v.column, v.end_column, str(e)) from None
    return out


def _arg(param, v, ann, position):
    if v.kind == 'number' and type(v.value) is float and ann.python_type is int:
        raise S.ArgumentError(_float_for_int(param, v.value, ann))
    if ann.aggregate:
        raise S.ArgumentError(f'{param} is a tuple or dataclass parameter: launch directives and '
                              'launch files take arrays, lists of arrays and scalars')
    if ann.constant:
        if v.kind != 'number':
            raise S.ArgumentError(f'{param} is a ct.Constant: give it a number, True or False')
        return S.Arg('constant', value=v.value)
    if v.kind == 'number':
        return S.scalar_of_python(param, v.value, ann)
    if v.kind == 'scalar':
        return S.Arg('scalar', dtype=v.dtype, value=v.value)
    arrays = [v] if v.kind == 'array' else v.items
    return S.Arg(v.kind, arrays=[
        S.Array(a.dtype, a.shape, a.strides or S.contiguous_strides(a.shape),
                ALLOCATION_STRIDE * (64 * position + n + 1))
        for n, a in enumerate(arrays)])


def _float_for_int(param, value, ann):
    """Why float `value` is refused for int-annotated `param`. cuTile refuses it for a
    ct.ScalarInt64; a plain `int` annotation it ignores (a float makes an f32 scalar, or a float
    constant), but a directive that gives an int parameter a float is almost surely mistyped."""
    message = f'{param} is annotated int, and {value!r} is a float: write an integer'
    if ann.scalar_annotated:
        return message + ' (cuTile takes only integers for it)'
    if ann.constant:
        return message
    return message + f', or f32({value!r}) if the launch really passes a float (cuTile takes it as f32)'


def _kernel_object(module, qualname):
    obj = module
    for part in qualname.split('.'):
        obj = getattr(obj, part, None)
    return obj


def _compile_one(d, module, out_dir, remap, ct):
    """`out_dir` None: the bytecode and launch go into the index entry instead of files."""
    """The index entry of directive `d`'s launch; raises DirectiveError or returns a Diagnostic."""
    kern = _kernel_object(module, d.kernel)
    if not isinstance(kern, ct.kernel):
        raise D.DirectiveError(*d.head, f'{d.kernel} (line {d.kernel_line}) is not a cuTile kernel '
                                        'after the import: decorate it with @ct.kernel')
    annots = S.annotations(kern)
    args = directive_args(d, annots)
    try:
        sig, described = S.build(kern, d.params, args, annots)
    except S.ArgumentError as e:
        raise D.DirectiveError(d.column, d.end_column, str(e)) from None
    from cuda.tile._exception import TileError
    fallback = d.diagnostic(*d.head, f'cuTile could not compile {d.kernel} for this launch: ',
                            code='cutile.compile')
    try:
        with debug_paths(remap):
            bytecode, symbol = compile_bytecode(kern, sig, d.version, d.sm)
    except TileError as e:
        return tile_error_diagnostic(e, fallback)
    except Exception as e:  # cuTile's own failures (a TypeError of a signature, an internal error)
        fallback.message += f'{type(e).__name__}: {e}'
        return fallback
    stem = f'{d.kernel}.L{d.line}'
    launch = {'kernel': d.kernel, 'symbol': symbol, 'bytecode_version': d.version,
              'grid': d.grid, 'args': described}
    if out_dir is None:
        return {'kernel': d.kernel, 'line': d.line, 'grid': d.grid, 'version': d.version,
                'bytecode_base64': base64.b64encode(bytecode).decode('ascii'), 'launch': launch}
    write_atomically(os.path.join(out_dir, stem + '.tilebc'), bytecode)
    write_atomically(os.path.join(out_dir, stem + '.launch.json'), json.dumps(launch, indent=1) + '\n')
    return {'kernel': d.kernel, 'line': d.line, 'grid': d.grid, 'version': d.version,
            'bytecode': stem + '.tilebc', 'launch': stem + '.launch.json'}


def compile_file(path, out_dir, prefix_maps=(), kernel=None, source=None):
    """Compiles kernel file `path`'s directed launches into `out_dir` and writes its index.json;
    returns the index. cuda.tile must be importable. `out_dir` None: nothing is written (the
    caller prints the index). `source`: the file's text, when not the one on disk."""
    import cuda.tile as ct
    path = os.path.abspath(path)
    given = source is not None
    if not given:
        with open(path, encoding='utf-8') as f:
            source = f.read()
    if out_dir is not None:
        os.makedirs(out_dir, exist_ok=True)
    found, diags = D.parse_source(source)
    launches = []
    try:
        module = import_file(path, source if given else None)
    except Exception as e:
        module = None
        diags.append(import_error_diagnostic(e, path))
    wanted = [d for d in found if kernel in (None, d.kernel, d.kernel.rsplit('.', 1)[-1])]
    remap = prefix_remapper(prefix_maps)
    for d in wanted if module is not None else []:
        try:
            result = _compile_one(d, module, out_dir, remap, ct)
        except D.DirectiveError as e:
            result = d.diagnostic(e.column, e.end_column, e.message)
        if isinstance(result, D.Diagnostic):
            diags.append(result)
        else:
            launches.append(result)
    index = {'file': path, 'cutile': str(getattr(ct, '__version__', 'unknown')),
             'launches': launches,
             'diagnostics': sorted((x.to_json(path) for x in diags),
                                   key=lambda j: (j['file'] != path, j['file'], j['line'], j['column']))}
    if out_dir is not None:
        write_atomically(os.path.join(out_dir, 'index.json'), json.dumps(index, indent=1) + '\n')
    return index

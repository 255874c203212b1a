"""Recording the launches a real program makes (`tilesight record --out DIR -- CMD`).

record_site/sitecustomize.py calls install(DIR) when TILESIGHT_RECORD_DIR is set: cuda.tile.launch
is wrapped as soon as cuda.tile is imported. Each call is described from its actual arguments,
compiled to bytecode for the signature those arguments give (once per kernel and signature),
written as DIR/NNN.KERNEL.tilebc and DIR/NNN.KERNEL.launch.json, and then the original launch
runs with the original arguments. Whatever recording does, the program behaves as without it:
its failures go to DIR/record.json ("errors") and one line on stderr.
"""
import atexit
import functools
import importlib.abc
import json
import os
import sys
import threading

from . import dtypes
from . import signature as S
from .directives import VERSIONS

ENV_DIR = 'TILESIGHT_RECORD_DIR'
ENV_MAX = 'TILESIGHT_RECORD_MAX'          # distinct launches written (default 64)
ENV_VERSION = 'TILESIGHT_RECORD_VERSION'  # bytecode version (default 13.3)
ENV_ROOT = 'TILESIGHT_RECORD_ROOT_PID'    # the recorded program's first process
MAX_ERRORS = 64


def _array(what, obj):
    """An Array from `obj`'s __cuda_array_interface__ (strides in bytes, or None when
    C-contiguous; data = (pointer, read-only))."""
    cai = obj.__cuda_array_interface__
    typestr = cai['typestr']
    if typestr[:1] not in '<|' or len(typestr) < 3 or not typestr[2:].isdigit():
        raise S.ArgumentError(f"{what}: typestr '{typestr}' is not a little-endian type cuTile takes")
    short = dtypes.TYPESTR.get((typestr[1], int(typestr[2:])))
    if short is None:
        raise S.ArgumentError(f"{what}: typestr '{typestr}' has no launch file dtype")
    shape = [int(x) for x in cai['shape']]
    size = dtypes.bits(short) // 8
    if cai.get('strides') is None:
        strides = S.contiguous_strides(shape)
    else:
        byte_strides = [int(x) for x in cai['strides']]
        if any(s % size for s in byte_strides):
            raise S.ArgumentError(f'{what}: byte strides {byte_strides} are not whole {short} elements')
        strides = [s // size for s in byte_strides]
    return S.Array(short, shape, strides, int(cai['data'][0] or 0))


def _described(param, obj):
    if hasattr(obj, '__cuda_array_interface__'):
        return _array(param, obj)
    if hasattr(obj, '__dlpack__'):
        raise S.ArgumentError(f'{param} is a DLPack array without __cuda_array_interface__: '
                              'tilesight records only the latter')
    raise S.ArgumentError(f'{param}: cuTile takes no {type(obj).__name__} argument')


def python_arg(param, value, ann):
    """The Arg cuTile makes of Python value `value` for a parameter annotated `ann`."""
    if ann.aggregate:
        raise S.ArgumentError(f'{param} is a tuple or dataclass parameter: launch files take '
                              'arrays, lists of arrays, scalars and constants')
    if ann.constant:
        return S.Arg('constant', value=value)
    if isinstance(value, (bool, int, float)):
        return S.scalar_of_python(param, value, ann)
    if isinstance(value, list):
        items = [_described(f'{param}[{k}]', x) for k, x in enumerate(value)]
        if not items:
            raise S.ArgumentError(f'{param} is an empty list')
        if len({(a.dtype, len(a.shape)) for a in items}) > 1:
            raise S.ArgumentError(f'the arrays of list {param} differ in dtype or rank')
        return S.Arg('list', arrays=items)
    return S.Arg('array', arrays=[_described(param, value)])


def _grid(grid):
    axes = [grid] if isinstance(grid, int) else list(grid)
    if not 1 <= len(axes) <= 3 or not all(isinstance(g, int) and 1 <= g <= (1 << 24) - 1 for g in axes):
        raise S.ArgumentError(f'grid {grid!r} is not one to three extents from 1 to 2^24 - 1 '
                              '(what launch files hold)')
    return axes


class Recorder:
    def __init__(self, out_dir, limit=64, version='13.3'):
        self.out_dir, self.limit, self.version = os.path.abspath(out_dir), limit, version
        self.lock = threading.RLock()
        self.compiled = {}  # (kernel, symbol) -> (kernel, bytecode): kept alive, ids stay unique
        self._reset()

    def _reset(self):
        """Fresh state for this process (a forked child starts its own record)."""
        self.pid = os.getpid()
        self.tag = '' if str(self.pid) == os.environ.get(ENV_ROOT) else f'p{self.pid}.'
        self.seen = {}       # launch key -> its record.json entry
        self.launches, self.errors = [], {}
        self.skipped = 0

    def wrap(self, launch):
        @functools.wraps(launch)
        def recording_launch(*args, **kwargs):
            try:
                self.record(args)
            except Exception as e:  # never the program's business
                self.error(None, f'{type(e).__name__}: {e}')
            return launch(*args, **kwargs)
        recording_launch.__wrapped_by_tilesight__ = True
        return recording_launch

    def record(self, args):
        """Records launch(stream, grid, kernel, kernel_args) called with `args`."""
        import cuda.tile as ct
        if len(args) != 4 or not isinstance(args[2], ct.kernel) or not isinstance(args[3], (tuple, list)):
            self.error(None, 'launch was called with other arguments than (stream, grid, kernel, '
                             'kernel_args): not recorded')
            return
        _, grid, kern, kernel_args = args
        name = kern._annotated_function.pyfunc.__name__
        with self.lock:
            if os.getpid() != self.pid:
                self._reset()
            try:
                self._record(grid, kern, name, tuple(kernel_args))
            except S.ArgumentError as e:
                self.error(name, str(e))

    def _record(self, grid, kern, name, kernel_args):
        annots = S.annotations(kern)
        params = list(annots)
        if len(kernel_args) != len(params):
            raise S.ArgumentError(f'{len(kernel_args)} arguments for {len(params)} parameters')
        args = [python_arg(p, v, annots[p]) for p, v in zip(params, kernel_args)]
        axes = _grid(grid)
        sig, described = S.build(kern, params, args, annots)
        key = (id(kern), json.dumps([axes, described]))
        if key in self.seen:
            self.seen[key]['calls'] += 1
            return
        if len(self.launches) >= self.limit:
            self.skipped += 1
            if self.skipped == 1:
                self._write_record()
            return
        bytecode, symbol = self._compile(kern, name, sig)
        stem = f'{self.tag}{len(self.launches) + 1:03d}.{name}'
        launch = {'kernel': name, 'symbol': symbol, 'bytecode_version': self.version,
                  'grid': axes, 'args': described}
        from .compile_cmd import write_atomically
        os.makedirs(self.out_dir, exist_ok=True)
        write_atomically(os.path.join(self.out_dir, stem + '.tilebc'), bytecode)
        write_atomically(os.path.join(self.out_dir, stem + '.launch.json'), json.dumps(launch, indent=1) + '\n')
        entry = {'kernel': name, 'grid': axes, 'bytecode': stem + '.tilebc',
                 'launch': stem + '.launch.json', 'calls': 1}
        self.seen[key] = entry
        self.launches.append(entry)
        self._write_record()

    def _compile(self, kern, name, sig):
        sig = sig.with_mangled_symbol(name)
        cache_key = (id(kern), sig.symbol)
        if cache_key not in self.compiled:
            from cuda.tile._exception import TileError
            from .compiler import compile_bytecode
            try:
                bytecode, symbol = compile_bytecode(kern, sig, self.version, None)
            except TileError as e:
                loc = getattr(e, 'loc', None)
                where = f' ({loc.filename}:{loc.line})' if getattr(loc, 'filename', None) else ''
                raise S.ArgumentError(f'cuTile could not compile {name}: {e.message}{where}') from None
            self.compiled[cache_key] = (kern, bytecode)
        return self.compiled[cache_key][1], sig.symbol

    def error(self, kernel, message):
        with self.lock:
            key = (kernel, message)
            first = key not in self.errors
            if first and len(self.errors) >= MAX_ERRORS:
                return
            self.errors.setdefault(key, {'kernel': kernel, 'message': message, 'count': 0})['count'] += 1
            if first:
                sys.stderr.write(f"tilesight record: {kernel or 'a launch'} not recorded: {message}\n")
                try:
                    self._write_record()
                except OSError as e:
                    sys.stderr.write(f'tilesight record: cannot write to {self.out_dir}: {e}\n')

    def _write_record(self):
        from .compile_cmd import write_atomically
        record = {'launches': self.launches,
                  'skipped': {'count': self.skipped,
                              'why': f'only the first {self.limit} distinct launches are written '
                                     f'({ENV_MAX} sets how many)' if self.skipped else ''},
                  'errors': list(self.errors.values())}
        os.makedirs(self.out_dir, exist_ok=True)
        write_atomically(os.path.join(self.out_dir, f'record.{self.tag}json'),
                         json.dumps(record, indent=1) + '\n')

    def finish(self):
        """At exit: the final call counts."""
        with self.lock:
            if os.getpid() == self.pid and (self.launches or self.errors or self.skipped):
                try:
                    self._write_record()
                except OSError as e:
                    sys.stderr.write(f'tilesight record: cannot write to {self.out_dir}: {e}\n')


def _wrap_module(module, recorder):
    launch = getattr(module, 'launch', None)
    if launch is not None and not getattr(launch, '__wrapped_by_tilesight__', False):
        module.launch = recorder.wrap(launch)


class _ImportHook(importlib.abc.MetaPathFinder):
    """Wraps cuda.tile.launch right after cuda.tile's own import has run, before anyone can
    `from cuda.tile import launch`."""
    def __init__(self, recorder):
        self.recorder = recorder

    def find_spec(self, fullname, path=None, target=None):
        if fullname != 'cuda.tile':
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, 'find_spec'):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader, recorder = spec.loader, self.recorder
        if loader is None or not hasattr(loader, 'exec_module'):
            return spec
        real_exec = loader.exec_module

        def exec_module(module):
            real_exec(module)
            _wrap_module(module, recorder)
        loader.exec_module = exec_module
        return spec


def install(out_dir):
    """Records the launches of this process (and of its children) into `out_dir`."""
    os.environ.setdefault(ENV_ROOT, str(os.getpid()))
    try:
        limit = int(os.environ.get(ENV_MAX, '64'))
    except ValueError:
        limit = 64
    version = os.environ.get(ENV_VERSION, '13.3')
    if version not in VERSIONS:
        sys.stderr.write(f"tilesight record: {ENV_VERSION}='{version}' is not one of "
                         f"{', '.join(VERSIONS)}; recording at 13.3\n")
        version = '13.3'
    recorder = Recorder(out_dir, limit, version)
    atexit.register(recorder.finish)
    if 'cuda.tile' in sys.modules:
        _wrap_module(sys.modules['cuda.tile'], recorder)
    else:
        sys.meta_path.insert(0, _ImportHook(recorder))
    return recorder

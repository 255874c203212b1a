"""Compiling one kernel for one signature to bytecode with cuTile, without a GPU or a CUDA driver
(no cubin), and turning cuTile's errors into diagnostics at the Python source they name."""
import contextlib
import linecache
import os
import sysconfig
import traceback

from .directives import Diagnostic
from .hoststubs import search_folders


@contextlib.contextmanager
def debug_paths(remap):
    """While compiling, file paths written into the debug info go through `remap` (as GCC's
    -fdebug-prefix-map: committed bytecode holds no path of the machine that made it). The
    program's own compilations, outside this block, are untouched."""
    from cuda.tile._bytecode import debug_info
    table = debug_info.DebugAttrTable
    file_, loc_ = table.file, table.loc
    table.file = lambda self, name, directory: file_(self, remap(name), remap(directory))
    table.loc = lambda self, scope, filename, line, col: loc_(self, scope, remap(filename), line, col)
    try:
        yield
    finally:
        table.file, table.loc = file_, loc_


def prefix_remapper(maps):
    """A path remapper for (OLD, NEW) pairs: the first OLD a path starts with becomes NEW."""
    def remap(path):
        for old, new in maps:
            if path.startswith(old):
                return new + path[len(old):]
        return path
    return remap


def compile_bytecode(kern, signature, version, sm):
    """(bytecode, symbol) of cuTile kernel `kern` for `signature` at bytecode version `version`
    ('13.3') for target `sm` (None: none named)."""
    from cuda.tile._compile import compile_tile
    from cuda.tile._bytecode.version import BytecodeVersion
    bytecode_version = getattr(BytecodeVersion, 'V_' + version.replace('.', '_'))
    result = compile_tile(kern._annotated_function, [signature], sm_arch=sm,
                          compiler_options=kern._compiler_options,
                          bytecode_version=bytecode_version,
                          return_bytecode=True, return_cubin=False)
    return bytes(result.bytecode), result.kernel_signatures[0].symbol


def _char_column(filename, line, byte_col):
    """cuTile's columns count UTF-8 bytes (0-based); diagnostics count characters (1-based)."""
    text = linecache.getline(filename, line).encode()
    return len(text[:byte_col].decode('utf-8', 'replace')) + 1


# How cuTile names the type of a stand-in it meets in a kernel (hoststubs.Placeholder).
_STAND_IN_TYPE = 'value of type tilesight_cutile.hoststubs.Placeholder'


def _explain_stand_ins(message):
    """cuTile's message with a host-only module's stand-in said as what it is."""
    return message.replace(_STAND_IN_TYPE, 'a stand-in for a host-only module (tilesight replaces '
                                           'torch, cupy, numba, triton, jax, tensorflow and pytest '
                                           'while compiling; of them a kernel can use torch\'s '
                                           'dtypes only)')


def tile_error_diagnostic(error, fallback):
    """A diagnostic for cuTile error `error` (TileError: message and .loc) at its location;
    `fallback` (a Diagnostic) gives the place when cuTile names none."""
    loc = getattr(error, 'loc', None)
    message = _explain_stand_ins(getattr(error, 'message', None) or str(error))
    if loc is None or not getattr(loc, 'filename', None) or loc.line <= 0:
        fallback.message = f'{fallback.message}{message}'
        return fallback
    filename = os.path.abspath(loc.filename)
    column = _char_column(filename, loc.line, loc.col)
    end_line, end_column = loc.line, column + 1
    if loc.last_line is not None and loc.end_col is not None:
        end_line, end_column = loc.last_line, _char_column(filename, loc.last_line, loc.end_col)
        if (end_line, end_column) <= (loc.line, column):
            end_line, end_column = loc.line, column + 1
    return Diagnostic(loc.line, column, end_column, message, code='cutile.compile',
                      end_line=end_line, file=filename)


def import_error_diagnostic(error, path):
    """A cutile.import diagnostic for an exception raised while importing kernel file `path`: a
    SyntaxError at its position, a cuTile error at its location, anything else at the deepest
    line of the file in its traceback."""
    from cuda.tile._exception import TileError
    if isinstance(error, TileError) and getattr(error.loc, 'filename', None):
        d = tile_error_diagnostic(error, None)
        d.code = 'cutile.import'
        return d
    if isinstance(error, SyntaxError) and error.lineno:
        file = os.path.abspath(error.filename or path)
        column = max(error.offset or 1, 1)
        end_line = getattr(error, 'end_lineno', None) or error.lineno
        end_column = getattr(error, 'end_offset', None) or column + 1
        if (end_line, end_column) <= (error.lineno, column):
            end_line, end_column = error.lineno, column + 1
        return Diagnostic(error.lineno, column, end_column, f'{type(error).__name__}: {error.msg}',
                          code='cutile.import', end_line=end_line, file=file)
    line, file = 1, path
    for frame in traceback.extract_tb(error.__traceback__):
        if os.path.abspath(frame.filename) == path:
            line, file = frame.lineno, path
    text = linecache.getline(file, line).rstrip('\n')
    start = len(text) - len(text.lstrip()) + 1
    message = f'importing the file raised {type(error).__name__}: {error}'
    where = _raised_where(error, path)
    if where:
        message += f' ({where})'
    if isinstance(error, ModuleNotFoundError):
        message += _where_imports_looked(path)
    if 'libcuda' in str(error):
        message += ('; tilesight compiles with no GPU and no CUDA driver: keep what asks for the GPU '
                    "out of the import (in a function, or under if __name__ == '__main__')")
    return Diagnostic(line, start, max(len(text) + 1, start + 1), message,
                      code='cutile.import', file=file)


def _folders(*paths):
    return tuple({os.path.join(os.path.abspath(p), '') for p in paths})


# Where the frames of an import's traceback come from that say nothing to the user: Python's
# own library (importlib's frames among them), cuTile, and this package; installed packages,
# which may lie inside the standard library's folder (a virtual environment's lib/pythonX.Y),
# are the user's.
_PYTHONS_OWN = _folders(*(sysconfig.get_paths()[k] for k in ('stdlib', 'platstdlib')),
                        os.path.dirname(__file__))
_INSTALLED = _folders(*(sysconfig.get_paths()[k] for k in ('purelib', 'platlib')))
# The most frames of other files an import diagnostic names.
MAX_FRAMES = 3


def _users(filename, cutile):
    path = os.path.abspath(filename)
    if filename.startswith('<') or path.startswith(cutile):
        return False
    return path.startswith(_INSTALLED) or not path.startswith(_PYTHONS_OWN)


def _raised_where(error, path):
    """'raised in util.py:294, imported from conftest.py:239': the innermost frames (at most
    MAX_FRAMES) below the kernel file's last one that are the user's, '' when there are none.
    Paths are relative to the kernel file's folder when inside it."""
    import cuda.tile
    cutile = _folders(os.path.dirname(cuda.tile.__file__))
    frames = traceback.extract_tb(error.__traceback__)
    last = max((n for n, f in enumerate(frames) if os.path.abspath(f.filename) == path), default=-1)
    inner = [f for f in frames[last + 1:] if _users(f.filename, cutile)]
    inner = inner[-MAX_FRAMES:][::-1]
    if not inner:
        return ''
    folder = os.path.dirname(path)

    def shown(f):
        rel = os.path.relpath(os.path.abspath(f.filename), folder)
        return f'{os.path.abspath(f.filename) if rel.startswith(os.pardir) else rel}:{f.lineno}'
    out = f'raised in {shown(inner[0])}'
    for frame, outer in zip(inner, inner[1:]):
        # A module's top level runs because the frame outside it imported the module.
        out += f", {'imported' if frame.name == '<module>' else 'called'} from {shown(outer)}"
    return out


def _where_imports_looked(path):
    folders = [f'{what} {folder}' for what, folder in search_folders(path)]
    listed = ', '.join(folders[:-1]) + ' and ' + folders[-1] if len(folders) > 1 else folders[0]
    return (f' (imports looked in {listed}, then in the installed packages: add the folder that '
            'holds it to PYTHONPATH)')

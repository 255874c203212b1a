"""Compiling one kernel for one signature to bytecode with cuTile, without a GPU or a CUDA driver
(no cubin), and turning cuTile's errors into diagnostics at the Python source they name."""
import contextlib
import linecache
import os
import traceback

from .directives import Diagnostic


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


def tile_error_diagnostic(error, fallback):
    """A diagnostic for cuTile error `error` (TileError: message and .loc) at its location;
    `fallback` (a Diagnostic) gives the place when cuTile names none."""
    loc = getattr(error, 'loc', None)
    message = getattr(error, 'message', None) or str(error)
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
    return Diagnostic(line, start, max(len(text) + 1, start + 1),
                      f'importing the file raised {type(error).__name__}: {error}',
                      code='cutile.import', file=file)

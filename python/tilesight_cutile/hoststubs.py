"""Imports a kernel file without its host-only libraries: torch, cupy and the like need a GPU
(or take seconds) and a kernel's compilation never uses them, so while the file is imported they
are stand-ins whose every attribute, call and index is another stand-in. The one exception is
torch's dtypes (torch.int32), which kernels pass to cuTile (ct.arange(n, dtype=torch.int32)): the
stand-in gives the cuda.tile dtype cuTile itself maps each to."""
import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import linecache
import os
import sys
import types

from .dtypes import torch_dtype

HOST_ONLY = frozenset({'torch', 'cupy', 'numba', 'triton', 'jax', 'tensorflow', 'pytest'})


class Placeholder:
    """Any attribute, call or index of a host-only module. Used as a decorator it returns what it
    decorates; as a base class it is `object`; it is false and iterates as empty."""
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f'<stand-in for {self._name}>'

    def __getattr__(self, item):
        if item.startswith('__'):
            raise AttributeError(item)
        return Placeholder(f'{self._name}.{item}')

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]):
            return args[0]
        return Placeholder(f'{self._name}(...)')

    def __getitem__(self, key):
        return self

    def __mro_entries__(self, bases):
        return (object,)

    def __iter__(self):
        return iter(())

    def __bool__(self):
        return False


class _PlaceholderModule(types.ModuleType):
    def __init__(self, name):
        super().__init__(name)
        self.__path__ = []

    def __getattr__(self, item):
        if item.startswith('__'):
            raise AttributeError(item)
        if self.__name__ == 'torch':
            dtype = torch_dtype(item)
            if dtype is not None:
                return dtype
        return Placeholder(f'{self.__name__}.{item}')


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition('.')[0] in HOST_ONLY:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return _PlaceholderModule(spec.name)

    def exec_module(self, module):
        pass


@contextlib.contextmanager
def _host_only_stubbed():
    finder = _Finder()
    real = {n: m for n, m in sys.modules.items() if n.partition('.')[0] in HOST_ONLY}
    for name in real:
        del sys.modules[name]
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if n.partition('.')[0] in HOST_ONLY]:
            del sys.modules[name]
        sys.modules.update(real)


def search_folders(path):
    """[(what, folder)] that import_file puts first on sys.path for kernel file `path`, in order:
    its folder (as `python3 FILE` has it), the folder above its package when the folder is one
    (has __init__.py, as pytest's rootdir rule has it: `from kernels.matmul import ...` in
    kernels/moe.py), and the working folder (as `python3 -m` has it)."""
    folder = os.path.dirname(os.path.abspath(path))
    root = folder
    while os.path.isfile(os.path.join(root, '__init__.py')) and os.path.dirname(root) != root:
        root = os.path.dirname(root)
    out = []
    for what, f in [("the file's folder", folder), ('the folder above its package', root),
                    ('the working folder', os.getcwd())]:
        if all(f != known for _, known in out):
            out.append((what, f))
    return out


def import_file(path, source=None):
    """The module of kernel file `path`, imported with host-only modules stubbed and the folders
    of search_folders first on sys.path. Registered in sys.modules under
    the file's stem (dataclasses and type hints look their module up there) unless that name is
    taken. `source`: the file's text as an editor has it (unsaved), run instead of the file's,
    and given to linecache so that cuTile reads the kernels' source from it too."""
    path = os.path.abspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    name = stem if stem.isidentifier() and stem not in sys.modules else '_tilesight_kernel_file'
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path[:0] = [folder for _, folder in search_folders(path)]
    sys.modules[name] = module
    try:
        with _host_only_stubbed():
            if source is None:
                spec.loader.exec_module(module)
            else:
                # No modification time: linecache.checkcache keeps the entry.
                linecache.cache[path] = (len(source), None, source.splitlines(True), path)
                exec(compile(source, path, 'exec'), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    return module

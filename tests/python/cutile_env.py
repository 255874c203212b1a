"""Where the tests find cuTile: TILESIGHT_CUTILE_PKG (a folder to put on sys.path, such as
the pkg/ of tilesight's cuTile build) or a cuda.tile this Python imports. Tests that need it skip,
saying why, when neither works."""
import os
import subprocess
import sys

# The folder holding tilesight_cutile: ctest names the build tree's copy (the installed layout).
PACKAGE_PARENT = os.environ.get('TILESIGHT_PYTHON_PACKAGE_PARENT') or os.path.abspath(
    os.path.join(os.path.dirname(__file__), '..', '..', 'python'))
RECORD_SITE = os.path.join(PACKAGE_PARENT, 'tilesight_cutile', 'record_site')


def _pythonpath(*first):
    extra = os.environ.get('TILESIGHT_CUTILE_PKG', '')
    return os.pathsep.join([*first, PACKAGE_PARENT] + ([extra] if extra else []))


def env(*first, **more):
    """The environment of a child Python: `first` folders, then the package, then cuTile."""
    e = dict(os.environ, PYTHONPATH=_pythonpath(*first), PYTHONDONTWRITEBYTECODE='1')
    e.pop('TILESIGHT_RECORD_DIR', None)
    e.update(more)
    return e


def _probe():
    r = subprocess.run([sys.executable, '-c', 'import cuda.tile'], env=env(),
                       capture_output=True, text=True)
    if r.returncode == 0:
        return None
    last = (r.stderr.strip().splitlines() or ['?'])[-1]
    return (f'cuTile is not importable by {sys.executable} ({last}); set TILESIGHT_CUTILE_PKG '
            'to a folder holding cuda/tile (cmake -DTILESIGHT_CUTILE_PKG=...)')


SKIP_REASON = _probe()
if SKIP_REASON:
    sys.stderr.write(f'tilesight_cutile tests: those that need cuTile skip: {SKIP_REASON}\n')


def run(args, **kwargs):
    return subprocess.run([sys.executable] + args, capture_output=True, text=True, **kwargs)

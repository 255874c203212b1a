"""Put first on PYTHONPATH by `tilesight record` (with TILESIGHT_RECORD_DIR set): installs
tilesight's launch recorder (tilesight_cutile.record), then runs the sitecustomize this one hides,
the next one on sys.path (Debian ships one), so the program starts as it would without us."""
import importlib.util
import os
import sys


def _install_recorder():
    out_dir = os.environ.get('TILESIGHT_RECORD_DIR')
    if not out_dir:
        return
    try:
        from tilesight_cutile import record
        record.install(out_dir)
    except Exception as e:  # the program runs regardless
        sys.stderr.write(f'tilesight record: the recorder could not be installed '
                         f'({type(e).__name__}: {e}); launches are not recorded\n')


def _chain_next_sitecustomize():
    here = os.path.dirname(os.path.abspath(__file__))
    entries = [os.path.abspath(e or os.curdir) for e in sys.path]
    after = entries[entries.index(here) + 1:] if here in entries else entries
    for entry in after:
        candidate = os.path.join(entry, 'sitecustomize.py')
        if entry != here and os.path.isfile(candidate):
            spec = importlib.util.spec_from_file_location('sitecustomize', candidate)
            module = importlib.util.module_from_spec(spec)
            sys.modules['sitecustomize'] = module
            spec.loader.exec_module(module)
            return


_install_recorder()
_chain_next_sitecustomize()

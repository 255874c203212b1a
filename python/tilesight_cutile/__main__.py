"""python3 -m tilesight_cutile compile FILE.py --out DIR|- [--stdin] [--prefix-map OLD=NEW]... [--kernel NAME]
python3 -m tilesight_cutile directives FILE.py

Exit status: 0 when the output was written (whatever diagnostics it holds), 2 for a usage or I/O
problem, 3 when this Python cannot import cuda.tile (compile only).
"""
import argparse
import json
import os
import sys

from . import directives as D

EXIT_NO_CUTILE = 3


def _prefix_map(text):
    old, sep, new = text.partition('=')
    if not sep or not old:
        raise argparse.ArgumentTypeError(f"'{text}' is not OLD=NEW (for example {os.getcwd()}/=)")
    return old, new


def _parser():
    p = argparse.ArgumentParser(prog='python3 -m tilesight_cutile',
                                description="tilesight's bridge to cuTile (docs/cutile.md)")
    sub = p.add_subparsers(dest='command', required=True)
    c = sub.add_parser('compile', help="compile FILE's launch directives to bytecode and launch files")
    c.add_argument('file')
    c.add_argument('--out', required=True, metavar='DIR',
                   help="where index.json and the files go; '-': the index on standard output, with "
                        "each launch's bytecode (base64) and launch inline, and no file written")
    c.add_argument('--stdin', action='store_true',
                   help="FILE's text comes on standard input (an editor's unsaved buffer)")
    c.add_argument('--prefix-map', action='append', default=[], type=_prefix_map, metavar='OLD=NEW',
                   help='rewrite paths starting with OLD in the debug info to start with NEW')
    c.add_argument('--kernel', metavar='NAME', help="only this kernel's launches")
    d = sub.add_parser('directives', help="print FILE's launch directives as JSON (no cuTile needed)")
    d.add_argument('file')
    return p


def _import_cutile():
    """None when cuda.tile imports; else what to print."""
    try:
        import cuda.tile  # noqa: F401
        return None
    except Exception as e:
        return (f'tilesight_cutile: this Python cannot import cuda.tile '
                f'({type(e).__name__}: {e}).\n'
                f'  interpreter: {sys.executable} (Python {sys.version.split()[0]})\n'
                f'  fix: install cuTile in it ({sys.executable} -m pip install cuda-tile), or point '
                'tilesight at a Python that has it: --python PATH or TILESIGHT_PYTHON=PATH\n')


def main(argv=None):
    a = _parser().parse_args(argv)
    stdin = getattr(a, 'stdin', False)
    if not stdin and not os.path.isfile(a.file):
        sys.stderr.write(f"tilesight_cutile: '{a.file}' is not a file\n")
        return 2
    try:
        if a.command == 'directives':
            path = os.path.abspath(a.file)
            found, diags = D.parse_file(path)
            out = {'file': path, 'directives': [d.to_json() for d in found],
                   'diagnostics': [x.to_json(path) for x in diags]}
            sys.stdout.write(json.dumps(out, indent=1) + '\n')
            return 0
        problem = _import_cutile()
        if problem:
            sys.stderr.write(problem)
            return EXIT_NO_CUTILE
        from .compile_cmd import compile_file
        source = sys.stdin.read() if stdin else None
        to_stdout = a.out == '-'
        # cuTile and the kernel file may print while importing: standard output is the index's.
        real_stdout, sys.stdout = sys.stdout, sys.stderr
        try:
            index = compile_file(a.file, None if to_stdout else a.out, a.prefix_map, a.kernel, source)
        finally:
            sys.stdout = real_stdout
        if to_stdout:
            sys.stdout.write(json.dumps(index) + '\n')
        return 0
    except (OSError, UnicodeDecodeError) as e:
        sys.stderr.write(f'tilesight_cutile: {e}\n')
        return 2


if __name__ == '__main__':
    sys.exit(main())

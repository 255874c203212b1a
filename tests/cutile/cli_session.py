#!/usr/bin/env python3
"""tilesight on cuTile Python files from the command line (docs/cutile.md), with the real cuTile.

- `check FILE.py`: the seeded race at its line with a note on the directive; text, JSON and SARIF;
  a folder walk takes the .py files that import cuda.tile and carry a directive, and no other;
  a directive mistake and cuTile's own type error are diagnostics at their lines;
  with an interpreter that lacks cuTile: exit 2, saying what failed and how to fix it.
- `run FILE.py`: the directive's launch with random inputs; --line chooses among several;
  --sanitize finds the race at its line; a file of several launches without --line is a usage error.
- `record -- python3 app.py`: a program whose arrays are host buffers behind
  __cuda_array_interface__ and whose launch cannot reach a driver; its output is unchanged,
  the launch lands in the folder, and `check FOLDER` finds the seeded bug at its Python line.

usage: cli_session.py TILESIGHT   (exit 77, skipped, when cuTile is not importable: set
       TILESIGHT_CUTILE_PKG to a built cuTile's pkg folder)
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

RACE = (pathlib.Path(__file__).parent / 'race.py').read_text()  # a directive and a seeded race
RACE_LINE, RACE_DIRECTIVE = 9, 4

CLEAN = '''import cuda.tile as ct


# tilesight: launch grid=(16,) a=f32[4096] b=f32[4096] out=f32[4096] TILE=256
# tilesight: launch grid=(4,) a=f32[1000] b=f32[1000] out=f32[1000] TILE=256
@ct.kernel
def vec_add(a, b, out, TILE: ct.Constant[int]):
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(TILE,))
    y = ct.load(b, index=(i,), shape=(TILE,))
    ct.store(out, index=(i,), tile=x + y)
'''

BROKEN = '''import cuda.tile as ct


# tilesight: launch grid=(4,) x=f32[64] TILE=32 extra=f32[4]
@ct.kernel
def copy(x, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(x, index=(ct.bid(0),), tile=t)


# tilesight: launch grid=(2,) x=f32[64] TILE=32
@ct.kernel
def typo(x, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(x, index=(ct.bid(0),), tile=t + undefined_name)
'''

UNSIGNED = '''import cuda.tile as ct


# tilesight: launch grid=(4,) x=u8[64] y=u8[64] f=bool[64] TILE=16
@ct.kernel
def copy_u8(x, y, f, TILE: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,)))
    ct.store(f, index=(i,), tile=ct.load(f, index=(i,), shape=(TILE,)))
'''

APP = '''import ctypes
import cuda.tile as ct


class HostArray:
    """A host buffer that says it is a CUDA array."""
    def __init__(self, ctype, typestr, n):
        self.buf = (ctype * n)()
        self.__cuda_array_interface__ = {'shape': (n,), 'typestr': typestr, 'strides': None,
                                         'version': 3, 'data': (ctypes.addressof(self.buf), False)}


@ct.kernel
def shifted_copy(x, y, TILE: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,))
    ct.store(y, index=(i + 1,), tile=t)


x = HostArray(ctypes.c_float, '<f4', 1024)
y = HostArray(ctypes.c_float, '<f4', 1024)
try:
    ct.launch(None, (8,), shifted_copy, (x, y, 128))
except Exception as e:
    print('the launch did not run:', type(e).__name__)
print('sum', sum(x.buf) + sum(y.buf))
'''
APP_BUG_LINE = 17  # ct.store at tile i + 1: the last block stores past the end

failures = []


def expect(cond, what, detail=''):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        failures.append(what)
        if detail:
            print('     ' + str(detail)[:2000])


def main():
    tilesight = os.path.abspath(sys.argv[1])
    env = dict(os.environ)
    pkg = env.get('TILESIGHT_CUTILE_PKG')
    if pkg:
        env['PYTHONPATH'] = pkg + (os.pathsep + env['PYTHONPATH'] if env.get('PYTHONPATH') else '')
    python = env.setdefault('TILESIGHT_PYTHON', '/usr/bin/python3')
    if subprocess.run([python, '-c', 'import cuda.tile'], env=env, capture_output=True).returncode:
        print('SKIP: cuda.tile is not importable by', python, '(set TILESIGHT_CUTILE_PKG)')
        return 77

    def ts(*args, cwd=None, stdin=None, e=None):
        return subprocess.run([tilesight, *args], capture_output=True, text=True, cwd=cwd, input=stdin,
                              env=e or env, timeout=600)

    with tempfile.TemporaryDirectory(prefix='tilesight-cutile-cli-') as tmp:
        t = pathlib.Path(tmp)
        (t / 'kernels').mkdir()
        (t / 'kernels' / 'race.py').write_text(RACE)
        (t / 'kernels' / 'clean.py').write_text(CLEAN)
        (t / 'kernels' / 'broken.py').write_text(BROKEN)
        (t / 'kernels' / 'helper.py').write_text('import cuda.tile as ct\n\nSCALE = 2\n')  # no directive
        (t / 'kernels' / 'notes.py').write_text('# tilesight: launch grid=(1,)\nprint("not cuTile")\n')
        (t / 'kernels' / 'typo.py').write_text(RACE.replace('# tilesight: launch', '# tilesight: lanch'))

        r = ts('check', 'kernels/race.py', cwd=tmp)
        expect(r.returncode == 1 and f'kernels/race.py:{RACE_LINE}:5: error:' in r.stdout and
               '[race.unordered]' in r.stdout and f'kernels/race.py:{RACE_DIRECTIVE}:1: note: for the launch at line '
               f'{RACE_DIRECTIVE} (grid 4x1x1)' in r.stdout, 'check FILE.py: the race at its line, the launch named',
               r.stdout + r.stderr)
        j = json.loads(ts('check', '--format=json', 'kernels/race.py', cwd=tmp).stdout)
        expect([(d['line'], d['code']) for d in j['diagnostics']] == [(RACE_LINE, 'race.unordered')],
               'check --format=json', j)
        sarif = json.loads(ts('check', '--format=sarif', 'kernels/race.py', cwd=tmp).stdout)
        results = sarif['runs'][0]['results']
        expect(len(results) == 1 and results[0]['ruleId'] == 'race.unordered' and
               results[0]['locations'][0]['physicalLocation']['region']['startLine'] == RACE_LINE,
               'check --format=sarif', results)

        quiet = RACE.replace('.astype(ct.int32))', '.astype(ct.int32))  # tilesight: ignore race.unordered')
        (t / 'quiet.py').write_text(quiet)
        r = ts('check', 'quiet.py', cwd=tmp)
        expect(r.returncode == 0 and r.stdout == '', '# tilesight: ignore CODE silences it on its line',
               r.stdout + r.stderr)
        (t / 'quiet.py').write_text(quiet.replace('race.unordered', 'bounds.index'))
        j = json.loads(ts('check', '--format=json', 'quiet.py', cwd=tmp).stdout)
        expect(sorted(d['code'] for d in j['diagnostics']) == ['race.unordered', 'suppression.unused'],
               'a suppression that silences nothing is suppression.unused', j)

        (t / 'twice.py').write_text(RACE.replace('# tilesight: launch grid=(4,)',
                                                  '# tilesight: launch grid=(2,) x=f32[32,128] idx=i32[32] TM=8 TN=128\n'
                                                  '# tilesight: launch grid=(4,)'))
        j = json.loads(ts('check', '--format=json', 'twice.py', cwd=tmp).stdout)
        notes = [n['message'] for d in j['diagnostics'] for n in d['notes'] if 'launch at line' in n['message']]
        expect(len(j['diagnostics']) == 1 and notes == ['for the launch at line 4 (grid 2x1x1)',
                                                        'also for the launch at line 5 (grid 4x1x1)'],
               'one finding of two launches: said once, with both launches', j)

        r = ts('check', 'kernels/clean.py', cwd=tmp)
        expect(r.returncode == 0 and r.stdout == '', 'a correct kernel with two launches: nothing',
               r.stdout + r.stderr)

        r = ts('check', '--format=json', 'kernels/broken.py', cwd=tmp)
        d = json.loads(r.stdout)['diagnostics'] if r.stdout else []
        codes = sorted((x['line'], x['code']) for x in d)
        expect(r.returncode == 1 and (4, 'cutile.directive') in codes and (15, 'cutile.compile') in codes,
               "a directive's mistake and cuTile's error at their lines", d or r.stderr)
        extra = [x for x in d if x['code'] == 'cutile.directive']
        expect(extra and extra[0]['column'] == BROKEN.splitlines()[3].index('extra') + 1 and 'extra' in
               extra[0]['message'], 'the directive mistake at its column', extra)

        r = ts('check', '--format=json', 'kernels', cwd=tmp)
        d = json.loads(r.stdout)['diagnostics']
        files = sorted({x['file'] for x in d})
        expect(files == ['kernels/broken.py', 'kernels/race.py', 'kernels/typo.py'],
               'a folder: the cuTile files naming tilesight (not helper.py, not a .py without cuda.tile)', files)
        typo = [x for x in d if x['file'] == 'kernels/typo.py']
        expect(len(typo) == 1 and typo[0]['code'] == 'cutile.directive' and typo[0]['severity'] == 'warning' and
               typo[0]['line'] == RACE_DIRECTIVE, 'a misspelt directive in a folder: a warning at it', typo)

        nocutile = dict(env, PYTHONPATH='', TILESIGHT_PYTHON='/usr/bin/python3')
        r = ts('check', 'kernels/race.py', cwd=tmp, e=nocutile)
        expect(r.returncode == 2 and 'cuda.tile' in r.stderr and '--python' in r.stderr,
               'no cuTile in that Python: exit 2, what and how to fix', r.stderr)
        (t / 'hang.py').write_text('import time\nimport cuda.tile as ct\ntime.sleep(600)\n' +
                                   RACE.split('\n', 1)[1])
        r = ts('check', 'hang.py', cwd=tmp, e=dict(env, TILESIGHT_CUTILE_TIMEOUT='2'))
        expect(r.returncode == 2 and 'did not finish within 2 s' in r.stderr,
               'an import that never ends is stopped at TILESIGHT_CUTILE_TIMEOUT, exit 2', r.stderr)
        r = ts('check', '--python', '/no/such/python', 'kernels/race.py', cwd=tmp)
        expect(r.returncode == 2 and '/no/such/python' in r.stderr, '--python naming no interpreter: exit 2',
               r.stderr)

        r = ts('run', 'kernels/race.py', '--sanitize', '--inputs=random', cwd=tmp)
        expect(r.returncode == 1 and f'kernels/race.py:{RACE_LINE}:' in r.stdout and 'race' in r.stdout,
               'run FILE.py --sanitize: the race at its line', r.stdout + r.stderr)
        r = ts('run', 'kernels/clean.py', cwd=tmp)
        expect(r.returncode == 2 and 'lines 4, 5' in r.stderr and '--line' in r.stderr,
               'run on two launches without --line: say which', r.stderr)
        r = ts('run', 'kernels/clean.py', '--line', '5', '--inputs=random', '--format=json', cwd=tmp)
        ran = json.loads(r.stdout) if r.returncode == 0 else {}
        expect(r.returncode == 0 and ran.get('grid') == [4, 1, 1], 'run --line 5: that launch (grid 4)',
               r.stdout[:400] + r.stderr)
        previews = {o['name']: o['preview'] for o in ran.get('outputs', [])}
        expect(previews.get('a') and previews.get('a') != previews.get('b'),
               '--inputs=random: each float array starts with values of its own (a and b differ)', previews)
        r = ts('run', 'kernels/clean.py', '--line', '7', cwd=tmp)
        expect(r.returncode == 2 and 'no launch directive on line 7' in r.stderr, 'run --line of no directive',
               r.stderr)
        (t / 'unsigned.py').write_text(UNSIGNED)
        r = ts('run', 'unsigned.py', '--inputs=random', '--format=json', cwd=tmp)
        expect(r.returncode == 0, 'run of u8 and bool arrays (Tile IR i8 and i1 buffers)', r.stdout[:300] + r.stderr)
        edited = CLEAN.replace('index=(i,), tile=x + y', 'index=(0,), tile=x + y')
        r = ts('run', str(t / 'kernels' / 'clean.py'), '--line', '4', '--source-on-stdin', '--sanitize', cwd=tmp,
               stdin=edited)
        expect(r.returncode == 1 and 'clean.py:11:' in r.stdout,
               'run --source-on-stdin: the unsaved text runs, reported at its lines', r.stdout + r.stderr)

        (t / 'app.py').write_text(APP)
        plain = subprocess.run([python, 'app.py'], capture_output=True, text=True, cwd=tmp, env=env)
        r = ts('record', '--out', 'rec', '--', python, 'app.py', cwd=tmp)
        expect(r.returncode == plain.returncode and r.stdout == plain.stdout,
               "record: the program's output and status unchanged", (plain.stdout, r.stdout, r.stderr))
        expect('1 launch recorded' in r.stderr and 'tilesight check' in r.stderr, 'record says what it recorded',
               r.stderr)
        launches = sorted((t / 'rec').glob('*.launch.json'))
        launch = json.loads(launches[0].read_text()) if launches else {}
        expect(launch.get('grid') == [8] and [a.get('shape') for a in launch.get('args', [])][:2] == [[1024], [1024]],
               'the launch file has the real grid and shapes', launch)
        r = ts('check', 'rec', cwd=tmp)
        expect(r.returncode == 1 and f'app.py:{APP_BUG_LINE}:' in r.stdout and 'bounds.index' in r.stdout,
               'check of the recording: the bug at its Python line', r.stdout + r.stderr)
        r = ts('record', '--out', 'rec', '--', python, 'app.py', cwd=tmp)
        expect(r.returncode == 2 and 'not empty' in r.stderr, 'record into a folder that holds files: exit 2',
               r.stderr)
    print('PASS' if not failures else f'{len(failures)} FAILED')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

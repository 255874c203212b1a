"""`python3 -m tilesight_cutile compile`: launch directives compiled with cuTile to bytecode and
launch files, cuTile's errors as diagnostics at their Python source, index.json, exit status."""
import json
import os
import tempfile
import textwrap
import unittest

import cutile_env

SAXPY = '''\
import cuda.tile as ct
import torch  # host-only: stubbed while importing

# tilesight: launch grid=(12,) x=f32[3000] y=f32[3000] out=f32[3000] alpha=2.5 TILE=256
# tilesight: launch grid=2 version=13.1 x=f32[64,strides=(2,)] y=f32[64] out=f32[64] alpha=f32(1) TILE=32
@ct.kernel
def saxpy(x, y, out, alpha, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    a = ct.load(x, index=(bid,), shape=(TILE,))
    b = ct.load(y, index=(bid,), shape=(TILE,))
    ct.store(out, index=(bid,), tile=a * alpha + b)


# tilesight: launch grid=1 x=f32[16] TILE=i32(16)
@ct.kernel
def typed_constant(x, TILE: ct.Constant[int]):
    pass
'''

TYPE_ERROR = '''\
import cuda.tile as ct


# tilesight: launch grid=1 x=f32[16] TILE=16
@ct.kernel
def bad(x, TILE: ct.Constant[int]):
    a = ct.load(x, index=(0,), shape=(TILE,))
    ct.store(x, index=(0,), tile=a + "s")


# tilesight: launch grid=1 x=f32[16] TILE=16
@ct.kernel
def good(x, TILE: ct.Constant[int]):
    a = ct.load(x, index=(0,), shape=(TILE,))
    ct.store(x, index=(0,), tile=a + 1.0)
'''

HELPER = '''\
import cuda.tile as ct


@ct.function
def twice(t):
    return t + "oops"
'''

USES_HELPER = '''\
import cuda.tile as ct
from helper_mod import twice


# tilesight: launch grid=1 x=f32[16]
@ct.kernel
def k(x):
    a = ct.load(x, index=(0,), shape=(16,))
    ct.store(x, index=(0,), tile=twice(a))
'''


@unittest.skipIf(cutile_env.SKIP_REASON, cutile_env.SKIP_REASON)
class Compile(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix='test_compile_')
        self.dir = self.tmp.name
        self.out = os.path.join(self.dir, 'out')

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, 'w') as f:
            f.write(text)
        return path

    def compile(self, path, *extra):
        r = cutile_env.run(['-m', 'tilesight_cutile', 'compile', path, '--out', self.out, *extra],
                           env=cutile_env.env())
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(self.out, 'index.json')) as f:
            return json.load(f)

    def launch_file(self, name):
        with open(os.path.join(self.out, name)) as f:
            return json.load(f)

    def test_saxpy_launches(self):
        path = self.write('kern.py', SAXPY)
        index = self.compile(path, '--prefix-map', self.dir + '/=')
        self.assertEqual(index['file'], path)
        self.assertTrue(index['cutile'])
        self.assertEqual(index['launches'], [
            {'kernel': 'saxpy', 'line': 4, 'grid': [12], 'version': '13.3',
             'bytecode': 'saxpy.L4.tilebc', 'launch': 'saxpy.L4.launch.json'},
            {'kernel': 'saxpy', 'line': 5, 'grid': [2], 'version': '13.1',
             'bytecode': 'saxpy.L5.tilebc', 'launch': 'saxpy.L5.launch.json'}])
        first = self.launch_file('saxpy.L4.launch.json')
        # The facts cuTile's dispatcher gives such arrays: the corpus's saxpy has this symbol.
        self.assertEqual(first['symbol'], 'saxpy_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I256')
        self.assertEqual(first['args'], [
            {'kind': 'array', 'dtype': 'f32', 'shape': [3000], 'strides': [1], 'param': 'x'},
            {'kind': 'array', 'dtype': 'f32', 'shape': [3000], 'strides': [1], 'param': 'y'},
            {'kind': 'array', 'dtype': 'f32', 'shape': [3000], 'strides': [1], 'param': 'out'},
            {'kind': 'scalar', 'dtype': 'f32', 'value': 2.5, 'param': 'alpha'},
            {'kind': 'constant', 'value': 256, 'param': 'TILE'}])
        second = self.launch_file('saxpy.L5.launch.json')
        self.assertEqual((second['bytecode_version'], second['args'][0]['strides']), ('13.1', [2]))
        # A stride of 2 is neither 1 nor a multiple of 16 bytes; 64 is a multiple of 16.
        self.assertTrue(second['symbol'].startswith('saxpy_Kt1_A1f32_1i16l0_p16_'), second['symbol'])
        with open(os.path.join(self.out, 'saxpy.L4.tilebc'), 'rb') as f:
            bytecode = f.read()
        self.assertTrue(bytecode.startswith(b'\x7fTileIR\x00'))
        self.assertNotIn(self.dir.encode() + b'/', bytecode)  # the prefix map applied
        self.assertIn(b'kern.py', bytecode)
        # A typed scalar for a ct.Constant parameter is an error at its value.
        [d] = index['diagnostics']
        line = SAXPY.splitlines()[13]
        self.assertEqual((d['line'], d['column'], d['end_column'], d['code']),
                         (14, line.index('i32(16)') + 1, line.index('i32(16)') + 8, 'cutile.directive'))
        self.assertIn('TILE is a ct.Constant', d['message'])

    def test_type_error_is_a_diagnostic_and_other_launches_compile(self):
        path = self.write('bad.py', TYPE_ERROR)
        index = self.compile(path)
        self.assertEqual([x['kernel'] for x in index['launches']], ['good'])
        [d] = index['diagnostics']
        line = TYPE_ERROR.splitlines()[7]
        self.assertEqual((d['file'], d['line'], d['column'], d['end_line'], d['end_column'], d['code']),
                         (path, 8, line.index('a + "s"') + 1, 8, line.index('a + "s"') + 8, 'cutile.compile'))
        self.assertIn('Unsupported operand types for +', d['message'])

    def test_error_in_a_helper_file_points_at_it(self):
        helper = self.write('helper_mod.py', HELPER)
        path = self.write('uses.py', USES_HELPER)
        index = self.compile(path)
        self.assertEqual(index['launches'], [])
        [d] = index['diagnostics']
        self.assertEqual((d['file'], d['line'], d['code']), (helper, 6, 'cutile.compile'))
        self.assertEqual(d['column'], HELPER.splitlines()[5].index('t + "oops"') + 1)

    def test_syntax_error_is_one_import_diagnostic(self):
        path = self.write('broken.py', '# tilesight: launch grid=1 x=f32[4]\n@ct.kernel\ndef k(x:\n    pass\n')
        index = self.compile(path)
        self.assertEqual(index['launches'], [])
        [d] = index['diagnostics']
        self.assertEqual((d['code'], d['line'], d['file']), ('cutile.import', 3, path))

    def test_exception_at_import_is_at_its_line(self):
        path = self.write('raises.py', 'import cuda.tile as ct\n\nx = 1 / 0\n')
        [d] = self.compile(path)['diagnostics']
        self.assertEqual((d['code'], d['line'], d['column'], d['end_column']), ('cutile.import', 3, 1, 10))
        self.assertIn('ZeroDivisionError', d['message'])

    def test_not_a_cutile_kernel(self):
        path = self.write('plain.py', textwrap.dedent('''\
            import functools
            # tilesight: launch grid=1 x=f32[4]
            @functools.lru_cache
            def k(x):
                pass
            '''))
        [d] = self.compile(path)['diagnostics']
        self.assertEqual((d['code'], d['line'], d['column']), ('cutile.directive', 2, 1))
        self.assertIn('is not a cuTile kernel', d['message'])

    def test_int_too_large_for_i32(self):
        path = self.write('big.py', 'import cuda.tile as ct\n# tilesight: launch grid=1 n=4294967296\n'
                                    '@ct.kernel\ndef k(n):\n    pass\n')
        [d] = self.compile(path)['diagnostics']
        self.assertEqual((d['line'], d['column'], d['end_column']), (2, 30, 40))
        self.assertIn('does not fit in i32', d['message'])

    def test_directive_over_lines_with_expressions_and_a_trailing_comment(self):
        path = self.write('multi.py', textwrap.dedent('''\
            import cuda.tile as ct


            # tilesight: launch grid=(256 // 64,) \\
            #   x=f32[4*64] TILE=2**6  # noqa: E501
            # tilesight: launch grid=1 \\
            #   x=f32[16] TILE=i32(16)
            @ct.kernel
            def k(x, TILE: ct.Constant[int]):
                ct.store(x, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(TILE,)))
            '''))
        index = self.compile(path)
        self.assertEqual([(x['line'], x['grid']) for x in index['launches']], [(4, [4])])
        args = self.launch_file('k.L4.launch.json')['args']
        self.assertEqual((args[0]['shape'], args[1]['value']), ([256], 64))
        # The second launch's mistake is on its second line.
        [d] = index['diagnostics']
        self.assertEqual((d['line'], d['column'], d['end_line'], d['end_column']), (7, 20, 7, 27))
        self.assertIn('TILE is a ct.Constant', d['message'])

    def test_fp8_arrays_and_scalars(self):
        path = self.write('fp8.py', textwrap.dedent('''\
            import cuda.tile as ct


            # tilesight: launch grid=2 a=f8e4m3fn[32] b=float8_e5m2[32] s=f8E8M0FNU[32] out=f32[32] alpha=f8E4M3FN(1.5)
            @ct.kernel
            def k(a, b, s, out, alpha):
                i = ct.bid(0)
                x = ct.load(a, index=(i,), shape=(16,)).astype(ct.float32)
                y = ct.load(b, index=(i,), shape=(16,)).astype(ct.float32)
                ct.store(out, index=(i,), tile=x + y + ct.astype(alpha, ct.float32))
            '''))
        index = self.compile(path)
        self.assertEqual(index['diagnostics'], [])
        launch = self.launch_file('k.L4.launch.json')
        # Tile IR's names, which tilesight's launch files and run's buffers take.
        self.assertEqual([a['dtype'] for a in launch['args']], ['f8E4M3FN', 'f8E5M2', 'f8E8M0FNU', 'f32', 'f8E4M3FN'])
        self.assertEqual(launch['args'][4]['value'], 1.5)
        self.assertIn('_A1f8m3fn_', launch['symbol'])

    def test_a_float_for_an_int_parameter_is_an_error_at_it(self):
        text = textwrap.dedent('''\
            import cuda.tile as ct


            # tilesight: launch grid=1 x=f32[16] n=2.0 wide=1 alpha=2 T=16
            # tilesight: launch grid=1 x=f32[16] n=2 wide=1.5 alpha=2 T=16
            # tilesight: launch grid=1 x=f32[16] n=2 wide=1 alpha=2 T=16.0
            # tilesight: launch grid=1 x=f32[16] n=f32(2.0) wide=1 alpha=2 T=16
            @ct.kernel
            def k(x, n: int, wide: ct.ScalarInt64, alpha: float, T: ct.Constant[int]):
                ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(T,)) * alpha + n + wide)
            ''')
        index = self.compile(self.write('ann.py', text))
        lines = text.splitlines()
        got = [(d['line'], d['column'], d['end_column'], d['message']) for d in index['diagnostics']]
        self.assertEqual(got, [
            (4, lines[3].index('2.0') + 1, lines[3].index('2.0') + 4,
             'n is annotated int, and 2.0 is a float: write an integer, or f32(2.0) if the launch '
             'really passes a float (cuTile takes it as f32)'),
            (5, lines[4].index('1.5') + 1, lines[4].index('1.5') + 4,
             'wide is annotated int, and 1.5 is a float: write an integer (cuTile takes only '
             'integers for it)'),
            (6, lines[5].index('16.0') + 1, lines[5].index('16.0') + 5,
             'T is annotated int, and 16.0 is a float: write an integer')])
        # A typed scalar says what the launch passes; an int for a float parameter is the i32
        # cuTile makes of it.
        [launch] = index['launches']
        self.assertEqual(launch['line'], 7)
        args = self.launch_file(launch['launch'])['args']
        self.assertEqual([(a['param'], a.get('dtype')) for a in args],
                         [('x', 'f32'), ('n', 'f32'), ('wide', 'i64'), ('alpha', 'i32'), ('T', None)])

    def test_kernel_option_selects(self):
        path = self.write('bad.py', TYPE_ERROR)
        index = self.compile(path, '--kernel', 'good')
        self.assertEqual(([x['kernel'] for x in index['launches']], index['diagnostics']), (['good'], []))

    def test_output_is_deterministic(self):
        path = self.write('kern.py', SAXPY)
        first = self.compile(path)
        with open(os.path.join(self.out, 'saxpy.L4.tilebc'), 'rb') as f:
            bytecode = f.read()
        self.assertEqual(self.compile(path), first)
        with open(os.path.join(self.out, 'saxpy.L4.tilebc'), 'rb') as f:
            self.assertEqual(f.read(), bytecode)


class CompileWithoutCutile(unittest.TestCase):
    def test_exit_3_says_what_and_how(self):
        with tempfile.TemporaryDirectory(prefix='test_compile_without_cutile') as tmp:
            os.makedirs(os.path.join(tmp, 'cuda'))
            with open(os.path.join(tmp, 'cuda', '__init__.py'), 'w') as f:
                f.write("raise ImportError('no cuTile here (test)')\n")
            kern = os.path.join(tmp, 'k.py')
            with open(kern, 'w') as f:
                f.write('x = 1\n')
            r = cutile_env.run(['-m', 'tilesight_cutile', 'compile', kern, '--out', os.path.join(tmp, 'o')],
                               env=cutile_env.env(tmp))
            self.assertEqual(r.returncode, 3, r.stderr)
            self.assertIn('cannot import cuda.tile (ImportError: no cuTile here (test))', r.stderr)
            self.assertIn(cutile_env.sys.executable, r.stderr)
            self.assertIn('TILESIGHT_PYTHON', r.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, 'o')))

    def test_bad_prefix_map_is_a_usage_error(self):
        r = cutile_env.run(['-m', 'tilesight_cutile', 'compile', __file__, '--out', '/tmp/x',
                            '--prefix-map', 'nothing'], env=cutile_env.env())
        self.assertEqual(r.returncode, 2)
        self.assertIn("'nothing' is not OLD=NEW", r.stderr)


if __name__ == '__main__':
    unittest.main()

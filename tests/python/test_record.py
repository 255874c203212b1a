"""Recording (record_site/sitecustomize.py): a program whose arrays are host buffers behind
__cuda_array_interface__ and whose launches fail without a CUDA driver runs as it would without
recording, and its launches land in launch files with their real grid, shapes, strides and
values."""
import json
import os
import tempfile
import unittest

import cutile_env

PROGRAM = '''\
import ctypes
import sys
import cuda.tile as ct
from cuda.tile import launch


class HostArray:
    """A host buffer that says it is a CUDA array (the recorder only reads the description)."""
    def __init__(self, ctype, typestr, shape, byte_strides=None, offset=0, count=None):
        self.buf = (ctype * (count or 4096))()
        self.__cuda_array_interface__ = {
            'shape': shape, 'typestr': typestr, 'strides': byte_strides, 'version': 3,
            'data': (ctypes.addressof(self.buf) + offset, False)}


class DlpackOnly:
    def __dlpack__(self, stream=None):
        raise RuntimeError('never called')


@ct.kernel
def scale(x, out, alpha, n, flag, TILE: ct.Constant[int]):
    pass


@ct.kernel
def gather(xs, out, count: ct.ScalarInt64):
    pass


def go(*args):
    try:
        launch(None, *args)
    except Exception as e:
        print('launch failed:', type(e).__name__)


x = HostArray(ctypes.c_float, '<f4', (3000,))
out = HostArray(ctypes.c_float, '<f4', (3000,))
for _ in range(3):
    go((12,), scale, (x, out, 2.5, 7, True, 256))  # three times: recorded once
# A padded 2-D view (row stride 48 elements) starting 4 bytes into its buffer, on the grid (2, 3).
padded = HostArray(ctypes.c_float, '<f4', (64, 32), byte_strides=(192, 4), offset=4)
go((2, 3), scale, (padded, padded, -1.0, -3, False, 32))
halves = [HostArray(ctypes.c_uint16, '<f2', (16, 8)), HostArray(ctypes.c_uint16, '<f2', (32, 8))]
go(5, gather, (halves, out, 1 << 40))
go(1, scale, (DlpackOnly(), out, 1.0, 1, True, 1))
print('done', file=sys.stdout)
'''

OTHER_SITECUSTOMIZE = 'print("the other sitecustomize ran")\n'


@unittest.skipIf(cutile_env.SKIP_REASON, cutile_env.SKIP_REASON)
class Record(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix='test_record_')
        self.dir = self.tmp.name
        self.program = os.path.join(self.dir, 'prog.py')
        with open(self.program, 'w') as f:
            f.write(PROGRAM)
        self.site = os.path.join(self.dir, 'usersite')
        os.makedirs(self.site)
        with open(os.path.join(self.site, 'sitecustomize.py'), 'w') as f:
            f.write(OTHER_SITECUSTOMIZE)
        self.out = os.path.join(self.dir, 'rec')

    def tearDown(self):
        self.tmp.cleanup()

    def run_program(self, record, **more):
        """As `tilesight record` runs it: record_site and the package first, the user's
        PYTHONPATH (here a folder with its own sitecustomize) after."""
        first = [cutile_env.RECORD_SITE] if record else []
        env = cutile_env.env(*first, **more)
        env['PYTHONPATH'] += os.pathsep + self.site
        if record:
            env['TILESIGHT_RECORD_DIR'] = self.out
        return cutile_env.run([self.program], env=env, cwd=self.dir)

    def read(self, name):
        with open(os.path.join(self.out, name)) as f:
            return json.load(f)

    def test_records_and_behaves_the_same(self):
        plain = self.run_program(record=False)
        recorded = self.run_program(record=True)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        self.assertEqual(recorded.returncode, 0, recorded.stderr)
        self.assertEqual(recorded.stdout, plain.stdout)
        self.assertTrue(plain.stdout.startswith('the other sitecustomize ran\n'), plain.stdout)
        self.assertEqual(plain.stdout.count('launch failed:'), 6)
        self.assertEqual(recorded.stderr.count('tilesight record:'), 1, recorded.stderr)
        self.assertIn('x is a DLPack array without __cuda_array_interface__', recorded.stderr)

        record = self.read('record.json')
        self.assertEqual([(e['bytecode'], e['launch'], e['kernel'], e['grid'], e['calls'])
                          for e in record['launches']],
                         [('001.scale.tilebc', '001.scale.launch.json', 'scale', [12], 3),
                          ('002.scale.tilebc', '002.scale.launch.json', 'scale', [2, 3], 1),
                          ('003.gather.tilebc', '003.gather.launch.json', 'gather', [5], 1)])
        self.assertEqual(record['skipped']['count'], 0)
        [error] = record['errors']
        self.assertEqual((error['kernel'], error['count']), ('scale', 1))
        self.assertEqual(sorted(os.listdir(self.out)),
                         sorted(['record.json'] + [f'{n}.{ext}' for n in ('001.scale', '002.scale', '003.gather')
                                                   for ext in ('tilebc', 'launch.json')]))

        first = self.read('001.scale.launch.json')
        self.assertEqual((first['kernel'], first['grid'], first['bytecode_version']), ('scale', [12], '13.3'))
        self.assertEqual(first['args'], [
            {'kind': 'array', 'dtype': 'f32', 'shape': [3000], 'strides': [1], 'param': 'x'},
            {'kind': 'array', 'dtype': 'f32', 'shape': [3000], 'strides': [1], 'param': 'out'},
            {'kind': 'scalar', 'dtype': 'f32', 'value': 2.5, 'param': 'alpha'},
            {'kind': 'scalar', 'dtype': 'i32', 'value': 7, 'param': 'n'},
            {'kind': 'scalar', 'dtype': 'bool', 'value': 1, 'param': 'flag'},
            {'kind': 'constant', 'value': 256, 'param': 'TILE'}])
        # ctypes buffers are 16-byte aligned: p16 on both arrays, and they do not overlap.
        self.assertEqual(first['symbol'], 'scale_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_Si32_Sb8_I256')

        padded = self.read('002.scale.launch.json')
        # The same array twice: both say their memory overlaps another argument's.
        self.assertEqual(padded['args'][0], {'kind': 'array', 'dtype': 'f32', 'shape': [64, 32],
                                             'strides': [48, 1], 'param': 'x', 'may_alias': True})
        self.assertTrue(padded['args'][1]['may_alias'])
        self.assertNotIn('may_alias', first['args'][0])
        self.assertEqual([a.get('value') for a in padded['args'][2:]], [-1.0, -3, 0, 32])
        # The same array twice: the two parameters share an alias group; 4 bytes past an aligned
        # buffer the base is not 16-byte aligned (no p16); 192-byte rows are 16-byte multiples.
        symbol = padded['symbol']
        self.assertIn('g0', symbol)
        self.assertNotIn('p16', symbol)

        gather = self.read('003.gather.launch.json')
        self.assertEqual(gather['args'][0], {'kind': 'list', 'param': 'xs', 'items': [
            {'kind': 'array', 'dtype': 'f16', 'shape': [16, 8], 'strides': [8, 1]},
            {'kind': 'array', 'dtype': 'f16', 'shape': [32, 8], 'strides': [8, 1]}]})
        self.assertEqual(gather['args'][2], {'kind': 'scalar', 'dtype': 'i64', 'value': 1 << 40, 'param': 'count'})

        with open(os.path.join(self.out, '001.scale.tilebc'), 'rb') as f:
            bytecode = f.read()
        self.assertTrue(bytecode.startswith(b'\x7fTileIR\x00'))
        self.assertIn(self.program.encode(), bytecode)  # absolute paths in the debug info

    def test_cap_says_what_was_skipped(self):
        recorded = self.run_program(record=True, TILESIGHT_RECORD_MAX='1')
        self.assertEqual(recorded.returncode, 0, recorded.stderr)
        record = self.read('record.json')
        self.assertEqual([e['bytecode'] for e in record['launches']], ['001.scale.tilebc'])
        self.assertEqual(record['skipped']['count'], 2)
        self.assertIn('TILESIGHT_RECORD_MAX', record['skipped']['why'])

    def test_without_the_directory_nothing_is_recorded(self):
        env = cutile_env.env(cutile_env.RECORD_SITE)
        env['PYTHONPATH'] += os.pathsep + self.site
        r = cutile_env.run([self.program], env=env, cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith('the other sitecustomize ran\n'))
        self.assertFalse(os.path.exists(self.out))
        self.assertEqual(r.stderr, '')


if __name__ == '__main__':
    unittest.main()

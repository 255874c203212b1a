"""Importing a kernel file for `compile`: torch's dtypes in kernels through the stand-in for torch,
the folders imports look in (a package's root, the working folder), and where an exception
raised by an imported helper came from."""
import json
import os
import tempfile
import textwrap
import unittest

import cutile_env

TORCH_DTYPES = '''\
import cuda.tile as ct
import torch
from torch import float16


# tilesight: launch grid=1 idx=i32[16] half=f16[16] wide=i64[16]
@ct.kernel
def k(idx, half, wide):
    ct.store(idx, index=(0,), tile=ct.arange(16, dtype=torch.int32))
    ct.store(half, index=(0,), tile=ct.full((16,), 1.5, dtype=float16))
    ct.store(wide, index=(0,), tile=ct.arange(16, dtype=torch.long))
'''

TORCH_OTHER = '''\
import cuda.tile as ct
import torch


# tilesight: launch grid=1 x=f32[16]
@ct.kernel
def k(x):
    ct.store(x, index=(0,), tile=ct.zeros((16,), dtype=torch.nn))
'''


class KernelFile(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix=f'{type(self).__name__}_')
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(textwrap.dedent(text))
        return path

    def compile(self, path, cwd=None):
        r = cutile_env.run(['-m', 'tilesight_cutile', 'compile', path, '--out', '-'],
                           env=cutile_env.env(), cwd=cwd or self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)


@unittest.skipIf(cutile_env.SKIP_REASON, cutile_env.SKIP_REASON)
class TorchDtypes(KernelFile):
    def test_torch_dtypes_in_a_kernel_are_cutiles(self):
        index = self.compile(self.write('tdtypes.py', TORCH_DTYPES))
        self.assertEqual(index['diagnostics'], [])
        self.assertEqual([x['kernel'] for x in index['launches']], ['k'])

    def test_a_stand_in_in_a_kernel_says_what_it_is(self):
        [d] = self.compile(self.write('tother.py', TORCH_OTHER))['diagnostics']
        self.assertEqual((d['code'], d['line']), ('cutile.compile', 8))
        self.assertIn('a stand-in for a host-only module', d['message'])
        self.assertIn("torch's dtypes only", d['message'])
        self.assertNotIn('Placeholder', d['message'])


USES_PACKAGE = '''\
import cuda.tile as ct
from kern_pkg.helpers import first
from kern_pkg_sibling import ONE


# tilesight: launch grid=1 x=f32[16]
@ct.kernel
def k(x):
    ct.store(x, index=(0,), tile=first(x) + ONE)
'''


@unittest.skipIf(cutile_env.SKIP_REASON, cutile_env.SKIP_REASON)
class ImportFolders(KernelFile):
    def test_package_root_and_working_folder_are_searched(self):
        # root/kern_pkg/sub/kern.py imports kern_pkg.helpers (from root) and a module of the
        # working folder (elsewhere).
        self.write('root/kern_pkg/__init__.py', '')
        self.write('root/kern_pkg/sub/__init__.py', '')
        self.write('root/kern_pkg/helpers.py', '''\
            import cuda.tile as ct


            @ct.function
            def first(x):
                return ct.load(x, index=(0,), shape=(16,))
            ''')
        self.write('cwd/kern_pkg_sibling.py', 'ONE = 1.0\n')
        path = self.write('root/kern_pkg/sub/kern.py', USES_PACKAGE)
        index = self.compile(path, cwd=os.path.join(self.dir, 'cwd'))
        self.assertEqual(index['diagnostics'], [])
        self.assertEqual(len(index['launches']), 1)

    def test_a_missing_module_names_the_folders_searched(self):
        self.write('root/kern_pkg/__init__.py', '')
        self.write('root/kern_pkg/helpers.py', 'first = None\n')
        path = self.write('root/kern_pkg/kern.py', USES_PACKAGE)
        [d] = self.compile(path, cwd=self.dir)['diagnostics']
        self.assertEqual((d['code'], d['line']), ('cutile.import', 3))
        root = os.path.join(self.dir, 'root')
        self.assertIn("No module named 'kern_pkg_sibling' (imports looked in the file's folder "
                      f"{root}/kern_pkg, the folder above its package {root} and the working "
                      f'folder {self.dir}, then in the installed packages: add the folder that '
                      'holds it to PYTHONPATH)', d['message'])


@unittest.skipIf(cutile_env.SKIP_REASON, cutile_env.SKIP_REASON)
class RaisedInAHelper(KernelFile):
    def test_the_helpers_frames_are_named(self):
        self.write('deep_info.py', '''\
            import os

            MAJOR = os.stat('/nonexistent/libcuda.so.1')
            ''')
        self.write('conf_like.py', '''\
            import sys


            def capability():
                from deep_info import MAJOR
                return MAJOR


            CAP = capability()
            ''')
        path = self.write('kern.py', '''\
            import cuda.tile as ct
            from conf_like import CAP
            ''')
        [d] = self.compile(path)['diagnostics']
        self.assertEqual((d['code'], d['line'], d['file']), ('cutile.import', 2, path))
        # The innermost three: os.stat is Python's own (not named), this file's line is the
        # diagnostic's place.
        self.assertIn("importing the file raised FileNotFoundError: [Errno 2] No such file or "
                      "directory: '/nonexistent/libcuda.so.1' (raised in deep_info.py:3, imported "
                      'from conf_like.py:5, called from conf_like.py:9); tilesight compiles with no '
                      'GPU and no CUDA driver', d['message'])

    def test_at_most_three_frames(self):
        for n in range(4):
            self.write(f'chain{n}.py', f'import chain{n + 1}\n')
        self.write('chain4.py', 'raise ValueError("deep")\n')
        path = self.write('kern.py', 'import chain0\n')
        [d] = self.compile(path)['diagnostics']
        self.assertTrue(d['message'].endswith('ValueError: deep (raised in chain4.py:1, imported '
                                              'from chain3.py:1, imported from chain2.py:1)'),
                        d['message'])

    def test_raised_in_the_file_itself_names_nothing_more(self):
        path = self.write('kern.py', 'import cuda.tile as ct\nx = 1 / 0\n')
        [d] = self.compile(path)['diagnostics']
        self.assertEqual(d['message'], 'importing the file raised ZeroDivisionError: division by zero')


if __name__ == '__main__':
    unittest.main()

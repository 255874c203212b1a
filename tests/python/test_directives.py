"""Launch directives parsed without cuTile: values, several launches, and every error with the
exact columns of the offending token."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

from tilesight_cutile import directives as D

KERNEL = '''
@ct.kernel
def k(x, y, alpha, TILE: ct.Constant[int]):
    pass
'''


def parse(*lines, kernel=KERNEL):
    return D.parse_source('import cuda.tile as ct\n' + '\n'.join(lines) + kernel)


def columns(text, token, nth=0):
    """The 1-based [start, end) columns of the nth occurrence of `token` in directive `text`."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(token, start + 1)
    return start + 1, start + 1 + len(token)


class DirectiveValues(unittest.TestCase):
    def test_saxpy(self):
        found, diags = parse('# tilesight: launch grid=(16,) x=f32[4096] y=f32[4096] alpha=2.0 TILE=256')
        self.assertEqual(diags, [])
        [d] = found
        self.assertEqual((d.line, d.kernel, d.kernel_line, d.grid, d.version, d.sm), (2, 'k', 4, [16], '13.3', None))
        self.assertEqual(list(d.args), ['x', 'y', 'alpha', 'TILE'])
        self.assertEqual((d.args['x'].kind, d.args['x'].dtype, d.args['x'].shape, d.args['x'].strides),
                         ('array', 'f32', [4096], None))
        self.assertEqual((d.args['alpha'].kind, d.args['alpha'].value), ('number', 2.0))
        self.assertIs(type(d.args['TILE'].value), int)

    def test_several_launches_decorators_and_comments_between(self):
        found, diags = D.parse_source(textwrap.dedent('''\
            import cuda.tile as ct
            # tilesight: launch grid=1 x=f32[8] y=f32[8] alpha=1 TILE=8
            # tilesight: launch grid=(2, 3) version=13.1 x=f32[8] y=f32[8] alpha=1 TILE=8

            # an ordinary comment
            @something
            @ct.kernel(opt_level=2)
            def k(x, y, alpha, TILE: ct.Constant[int]):
                pass
            '''))
        self.assertEqual(diags, [])
        self.assertEqual([(d.line, d.grid, d.version, d.sm, d.kernel_line) for d in found],
                         [(2, [1], '13.3', None, 8), (3, [2, 3], '13.1', 'sm_100', 8)])

    def test_version_sm_and_13_2_default(self):
        found, _ = parse('# tilesight: launch grid=1 version=13.2 x=f32[8] y=f32[8] alpha=1 TILE=8',
                         '# tilesight: launch grid=1 version=13.4 sm=sm_90a x=f32[8] y=f32[8] alpha=1 TILE=8')
        self.assertEqual([(d.version, d.sm) for d in found], [('13.2', 'sm_90'), ('13.4', 'sm_90a')])

    def test_strides_long_dtype_names_typed_scalars(self):
        found, diags = parse('# tilesight: launch grid=(4,) x=float16[64,128,strides=(256,1)] '
                             'y=bfloat16[] alpha=i64(-5) TILE=True')
        self.assertEqual(diags, [])
        a = found[0].args
        self.assertEqual((a['x'].dtype, a['x'].shape, a['x'].strides), ('f16', [64, 128], [256, 1]))
        self.assertEqual((a['y'].dtype, a['y'].shape), ('bf16', []))
        self.assertEqual((a['alpha'].kind, a['alpha'].dtype, a['alpha'].value), ('scalar', 'i64', -5))
        self.assertIs(a['TILE'].value, True)

    def test_fp8_dtypes_as_tile_ir_cutile_and_lower_case_name_them(self):
        found, diags = parse('# tilesight: launch grid=1 x=f8e4m3fn[8] y=float8_e5m2[8] alpha=f8E8M0FNU(1) TILE=8')
        self.assertEqual(diags, [])
        a = found[0].args
        self.assertEqual((a['x'].dtype, a['y'].dtype, a['alpha'].dtype, a['alpha'].value),
                         ('f8E4M3FN', 'f8E5M2', 'f8E8M0FNU', 1.0))

    def test_float_and_bool_typed_scalars(self):
        found, _ = parse('# tilesight: launch grid=1 x=f64(0.5) y=bool(1) alpha=f32(2) TILE=1e-5')
        a = found[0].args
        self.assertEqual([(a[p].dtype, a[p].value) for p in ('x', 'y', 'alpha')],
                         [('f64', 0.5), ('bool', True), ('f32', 2.0)])
        self.assertEqual(a['TILE'].value, 1e-5)

    def test_list_of_arrays(self):
        text = '# tilesight: launch grid=1 x=[f16[64,32], f16[32,64]] y=f32[1] alpha=0 TILE=1'
        found, diags = parse(text)
        self.assertEqual(diags, [])
        x = found[0].args['x']
        self.assertEqual((x.kind, [(i.dtype, i.shape) for i in x.items]),
                         ('list', [('f16', [64, 32]), ('f16', [32, 64])]))
        self.assertEqual((x.column, x.end_column), columns(text, '[f16[64,32], f16[32,64]]'))
        self.assertEqual((x.items[1].column, x.items[1].end_column), columns(text, 'f16[32,64]'))

    def test_percent_names_a_parameter_called_grid(self):
        found, diags = parse('# tilesight: launch grid=(2,) %grid=i32(7) %version=3',
                             kernel='\n@ct.kernel\ndef k(grid, version):\n    pass\n')
        self.assertEqual(diags, [])
        self.assertEqual(found[0].grid, [2])
        self.assertEqual((found[0].args['grid'].value, found[0].args['version'].value), (7, 3))

    def test_nested_class_kernel_has_qualified_name(self):
        found, _ = D.parse_source('class T:\n    # tilesight: launch grid=1 x=f32[4]\n'
                                  '    @ct.kernel\n    def k(x):\n        pass\n')
        self.assertEqual(found[0].kernel, 'T.k')

    def test_hash_in_a_string_is_not_a_directive(self):
        found, diags = D.parse_source('s = "# tilesight: launch grid=0"\n')
        self.assertEqual((found, diags), ([], []))


class DirectiveErrors(unittest.TestCase):
    """Each error: its message, and columns exactly those of the offending token."""

    def error(self, text, token, fragment, nth=0, kernel=KERNEL):
        found, diags = parse(text, kernel=kernel)
        self.assertEqual(len(diags), 1, diags)
        d = diags[0]
        self.assertEqual(found, [])
        self.assertEqual((d.line, d.code), (2, 'cutile.directive'))
        self.assertEqual((d.column, d.end_column), columns(text, token, nth), d.message)
        self.assertIn(fragment, d.message)
        return d

    OK = ' y=f32[8] alpha=1 TILE=8'

    def test_unknown_parameter(self):
        self.error('# tilesight: launch grid=1 x=f32[8] z=f32[8]' + self.OK, 'z',
                   "'z' is not a parameter of k (x, y, alpha, TILE)")

    def test_missing_parameters(self):
        text = '# tilesight: launch grid=1 x=f32[8]'
        self.error(text, text, 'parameters y, alpha, TILE are not given')

    def test_parameter_twice(self):
        self.error('# tilesight: launch grid=1 x=f32[8] x=f32[4]' + self.OK, 'x', 'given twice', nth=1)

    def test_grid_missing(self):
        self.error('# tilesight: launch x=f32[8]' + self.OK, '# tilesight: launch', 'needs grid=(X[,Y[,Z]])')

    def test_grid_without_axes(self):
        self.error('# tilesight: launch grid=() x=f32[8]' + self.OK, '()', 'has 0 axes')

    def test_grid_with_four_axes(self):
        self.error('# tilesight: launch grid=(1,2,3,4) x=f32[8]' + self.OK, '(1,2,3,4)', 'has 4 axes')

    def test_grid_extent_not_positive(self):
        self.error('# tilesight: launch grid=(4,-2) x=f32[8]' + self.OK, '-2', 'grid extent -2 is out of range')

    def test_grid_extent_too_large(self):
        self.error('# tilesight: launch grid=16777216 x=f32[8]' + self.OK, '16777216', 'out of range')

    def test_grid_extent_not_an_integer(self):
        self.error('# tilesight: launch grid=(2.5,) x=f32[8]' + self.OK, '2.5', 'must be an integer')

    def test_bad_dtype(self):
        self.error('# tilesight: launch grid=1 x=f8[8]' + self.OK, 'f8', "unknown dtype 'f8'")

    def test_bad_typed_scalar_dtype(self):
        self.error('# tilesight: launch grid=1 x=int9(3)' + self.OK, 'int9', "unknown dtype 'int9'")

    def test_negative_extent(self):
        self.error('# tilesight: launch grid=1 x=f32[8,-1]' + self.OK, '-1', 'extent -1 is negative')

    def test_strides_count(self):
        self.error('# tilesight: launch grid=1 x=f32[8,4,strides=(4,)]' + self.OK, 'strides=(4,)',
                   '1 strides for 2 dimensions')

    def test_strides_not_integers(self):
        self.error('# tilesight: launch grid=1 x=f32[8,strides=(x,)]' + self.OK, 'x', 'expected a stride', nth=1)

    def test_value_out_of_range_for_typed_scalar(self):
        self.error('# tilesight: launch grid=1 x=i8(300)' + self.OK, '300', 'does not fit in i8 (-128 to 127)')

    def test_float_in_an_integer_scalar(self):
        self.error('# tilesight: launch grid=1 x=i32(1.5)' + self.OK, '1.5', 'takes an integer')

    def test_word_is_not_a_value(self):
        self.error('# tilesight: launch grid=1 x=inf' + self.OK, 'inf', "'inf' is not a value")

    def test_not_a_number(self):
        self.error('# tilesight: launch grid=1 x=1.2.3' + self.OK, '1.2.3', "'1.2.3' is not a number")

    def test_item_without_equals(self):
        self.error('# tilesight: launch grid=1 x' + self.OK, 'x', 'expected NAME=VALUE')

    def test_empty_value(self):
        self.error('# tilesight: launch grid=1 x=' + self.OK, '=', "no value after 'x='", nth=1)

    def test_unclosed_bracket(self):
        self.error('# tilesight: launch grid=1 x=f32[8' + self.OK, '[', "'[' is never closed")

    def test_unmatched_bracket(self):
        self.error('# tilesight: launch grid=1 x=f32[8])' + self.OK, ')', "unmatched ')'")

    def test_trailing_garbage(self):
        self.error('# tilesight: launch grid=1 x=f32[8]abc' + self.OK, 'abc', "unexpected 'abc'")

    def test_bad_version(self):
        self.error('# tilesight: launch grid=1 version=12.8 x=f32[8]' + self.OK, '12.8', "version '12.8'")

    def test_bad_sm(self):
        self.error('# tilesight: launch grid=1 sm=hopper x=f32[8]' + self.OK, 'hopper', "sm 'hopper'")

    def test_list_of_non_arrays(self):
        self.error('# tilesight: launch grid=1 x=[f32[4], 3]' + self.OK, '3', 'a list holds arrays', nth=1)

    def test_list_mixing_dtypes(self):
        self.error('# tilesight: launch grid=1 x=[f32[4], f16[4]]' + self.OK, 'f16[4]', 'share dtype and rank')

    def test_empty_list(self):
        self.error('# tilesight: launch grid=1 x=[]' + self.OK, '[]', 'an empty list')

    def test_not_followed_by_a_def(self):
        self.error('# tilesight: launch grid=1 x=f32[8]' + self.OK, '# tilesight: launch', 'goes right above',
                   kernel='\nx = 1\n@ct.kernel\ndef k(x, y, alpha, TILE):\n    pass\n')

    def test_def_without_decorator(self):
        self.error('# tilesight: launch grid=1 x=f32[8]' + self.OK, '# tilesight: launch', 'is not decorated',
                   kernel='\ndef k(x, y, alpha, TILE):\n    pass\n')

    def test_non_ascii_text_before_the_token(self):
        text = '# tilesight: launch grid=1 x=f32[8] y=f32[8] alpha=1 TILE=8 é=3'
        self.error(text, 'é', "'é' is not a parameter of k")


class DirectiveLayout(unittest.TestCase):
    """A trailing comment, continuation lines, integer expressions."""

    def test_trailing_comment_ends_the_directive(self):
        text = '# tilesight: launch grid=(4,) x=f32[4] y=f32[4]  alpha=1 TILE=8  # noqa: E501 (x=1)'
        found, diags = parse(text)
        self.assertEqual(diags, [])
        [d] = found
        self.assertEqual((d.grid, d.args['TILE'].value), ([4], 8))
        self.assertEqual(d.end_column, text.index('  #') + 1)

    def test_hash_inside_brackets_is_not_a_comment(self):
        text = '# tilesight: launch grid=1 x=f32[4#] y=f32[4] alpha=1 TILE=8'
        found, [d] = parse(text)
        self.assertEqual((d.column, d.end_column), columns(text, '#', nth=1))

    def test_continuation_lines(self):
        found, diags = parse('#tilesight: launch grid=(4,) \\',
                             '#   x=f32[4, strides=(2,)] y=f32[4] \\',
                             '#   alpha=1 TILE=8  # noqa: E501')
        self.assertEqual(diags, [])
        [d] = found
        self.assertEqual((d.line, d.kernel_line, d.args['x'].strides, d.args['TILE'].value), (2, 6, [2], 8))
        self.assertEqual(d.to_json()['args'][0],
                         {'param': 'x', 'kind': 'array', 'line': 3, 'column': 7, 'end_line': 3,
                          'end_column': 27, 'dtype': 'f32', 'shape': [4], 'strides': [2]})

    def test_error_on_a_continuation_line_is_at_its_line_and_column(self):
        second = '#   x=f32[4] y=f32[4] alpha=1 TILE=8 z=1'
        found, [d] = parse('# tilesight: launch grid=1 \\', second)
        self.assertEqual((d.line, d.end_line, d.column, d.end_column), (3, 3, *columns(second, 'z')))
        self.assertIn("'z' is not a parameter", d.message)

    def test_missing_parameters_span_the_lines(self):
        found, [d] = parse('# tilesight: launch grid=1 \\', '#   x=f32[4]  # y missing')
        self.assertEqual((d.line, d.column, d.end_line, d.end_column), (2, 1, 3, 13))

    def test_continuation_without_a_next_comment(self):
        text = '# tilesight: launch grid=1 x=f32[8] \\'
        found, [d] = parse(text, 'x = 1')
        self.assertEqual((d.line, d.column, d.end_column), (2, *columns(text, '\\')))
        self.assertIn('must be a comment of its own', d.message)

    def test_integer_expressions(self):
        found, diags = parse('# tilesight: launch grid=(256 // 64, 2 * (3 + 1)) x=f32[4*1024, strides=(2**0,)] '
                             'y=f32[(1 + 2) % 2] alpha=i64(2**40) TILE=2**6')
        self.assertEqual(diags, [])
        a = found[0].args
        self.assertEqual((found[0].grid, a['x'].shape, a['x'].strides, a['y'].shape, a['alpha'].value,
                          a['TILE'].value), ([4, 8], [4096], [1], [1], 1 << 40, 64))
        self.assertIs(type(parse('# tilesight: launch grid=1 x=1 y=-(3) alpha=4*1024 TILE=8')[0][0]
                           .args['alpha'].value), int)

    def test_expression_errors_at_the_token(self):
        cases = [('grid=8/2', '8/2', '/ makes a float; use //'),
                 ('grid=(2*1.5,)', '1.5', 'it takes integer literals'),
                 ('grid=1 x=f32[3//0]', '3//0', 'divides by zero'),
                 ('grid=1 x=f32[2**-1]', '2**-1', 'a negative power'),
                 ('grid=1 x=f32[2**99999]', '2**99999', 'too large'),
                 ('grid=1 x=f32[4*]', '4*', 'is not an integer expression'),
                 ('grid=1 x=f32[4*n]', 'n', "'n' in an expression"),
                 ('grid=1 x=f32[-4+1]', '-4+1', 'extent -3 is negative')]
        for items, token, fragment in cases:
            with self.subTest(items):
                text = f'# tilesight: launch {items} y=f32[8] alpha=1 TILE=8'
                if ' x=' not in text:
                    text += ' x=f32[8]'
                found, [d] = parse(text)
                self.assertEqual((d.column, d.end_column), columns(text, token, nth=text.count(token) - 1), d.message)
                self.assertIn(fragment, d.message)


class MisspeltDirectives(unittest.TestCase):
    """A comment starting with 'tilesight' that is neither a launch directive nor a suppression
    is a warning (it would turn a launch's check off unseen)."""

    def warning(self, text):
        found, diags = parse(text + ' grid=1 x=f32[8] y=f32[8] alpha=1 TILE=8')
        self.assertEqual(found, [])
        [d] = diags
        self.assertEqual((d.line, d.code, d.severity), (2, 'cutile.directive', 'warning'))
        self.assertEqual((d.column, d.end_column), (1, len(text) + 1))
        self.assertEqual(d.to_json('f.py')['severity'], 'warning')
        return d.message

    def test_near_misses_say_what_was_meant(self):
        for text in ('# tilesight: lanch', '# tilesight launch', '# tilesight: Launch', '# TileSight: launch',
                     '#tilesight launch'):
            with self.subTest(text):
                self.assertEqual(self.warning(text), f"'{text}' is not a tilesight directive, so it does "
                                                     "nothing: did you mean '# tilesight: launch'?")

    def test_a_misspelt_ignore(self):
        self.assertIn("did you mean '# tilesight: ignore'?", self.warning('# tilesight: ingore'))

    def test_something_else_names_both_directives(self):
        self.assertIn("tilesight reads '# tilesight: launch NAME=VALUE ...' and '# tilesight: ignore CODE'",
                      self.warning('# tilesight: check'))

    def test_directives_and_suppressions_are_not_reported(self):
        for text in ('#tilesight: launch', '# tilesight:launch', '#  tilesight:  launch'):
            with self.subTest(text):
                found, diags = parse(text + ' grid=1 x=f32[8] y=f32[8] alpha=1 TILE=8')
                self.assertEqual((len(found), diags), (1, []))
        found, diags = D.parse_source('x = 1  # tilesight: ignore bounds.index\n'
                                      '# tilesight: ignore\n# tilesight: ignore race.unordered, bounds.index\n'
                                      '# tilesight_cutile is the package; tilesightful\n')
        self.assertEqual((found, diags), ([], []))


class DirectivesCommand(unittest.TestCase):
    def test_prints_json_without_cutile(self):
        with tempfile.TemporaryDirectory(prefix='test_directives_command') as tmp:
            path = os.path.join(tmp, 'k.py')
            with open(path, 'w') as f:
                f.write('# tilesight: launch grid=3 x=f32[4]\n@ct.kernel\ndef k(x):\n    pass\n'
                        '# tilesight: launch grid=0\n')
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if 'tilesight_cutile' not in p))
            r = subprocess.run([sys.executable, '-S', '-m', 'tilesight_cutile', 'directives', path],
                               capture_output=True, text=True, env=env, cwd=_package_parent())
            self.assertEqual(r.returncode, 0, r.stderr)
            out = json.loads(r.stdout)
            self.assertEqual(out['file'], path)
            self.assertEqual([(d['line'], d['kernel'], d['grid']) for d in out['directives']], [(1, 'k', [3])])
            self.assertEqual(out['directives'][0]['args'],
                             [{'param': 'x', 'kind': 'array', 'line': 1, 'column': 30, 'end_line': 1,
                               'end_column': 36, 'dtype': 'f32', 'shape': [4]}])
            [diag] = out['diagnostics']
            self.assertEqual((diag['line'], diag['column'], diag['end_column'], diag['code'], diag['file']),
                             (5, 26, 27, 'cutile.directive', path))

    def test_missing_file_is_a_usage_error(self):
        r = subprocess.run([sys.executable, '-m', 'tilesight_cutile', 'directives', '/nonexistent/k.py'],
                           capture_output=True, text=True, cwd=_package_parent())
        self.assertEqual(r.returncode, 2)
        self.assertIn("'/nonexistent/k.py' is not a file", r.stderr)


def _package_parent():
    import tilesight_cutile
    return os.path.dirname(os.path.dirname(os.path.abspath(tilesight_cutile.__file__)))


if __name__ == '__main__':
    unittest.main()

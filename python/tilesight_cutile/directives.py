"""`# tilesight: launch ...` comments: finding them in a kernel file, parsing them, and tying each
to the kernel `def` below it. Needs no cuTile: whether a parameter is a ct.Constant is decided
later, when cuTile has imported the kernel (launches.py).

Positions are 1-based lines and 1-based character columns, end exclusive, as the index file and
the editor want them.
"""
import ast
import difflib
import io
import re
import tokenize
from dataclasses import dataclass, field

from . import directive_lines, dtypes, int_expressions
from .directive_lines import Layout

VERSIONS = ('13.1', '13.2', '13.3', '13.4')
DEFAULT_VERSION = '13.3'
# cuTile's older bytecode versions name a target; these are the ones tilesight's corpus uses.
DEFAULT_SM = {'13.1': 'sm_100', '13.2': 'sm_90'}
GRID_MAX = (1 << 24) - 1  # what tilesight's launch files take per axis
OPTIONS = ('grid', 'version', 'sm')

_HEAD = re.compile(r'#\s*tilesight:\s*launch(?=\s|$)')
# What the C++ side takes for a suppression (analysis/diag/suppressions.cpp): not reported here.
_IGNORE = re.compile(r'#\s*tilesight:\s*ignore(?=[\s,]|$)')
# A comment meant for tilesight, spelt or not: its first word after the marker.
_MARKER = re.compile(r'#\s*tilesight\b\s*:?\s*(\w*)', re.IGNORECASE)
DIRECTIVE_WORDS = ('launch', 'ignore')
_NAME = re.compile(r'%?[^\W\d]\w*')
_WORD = re.compile(r'[A-Za-z_]\w*')
# A number literal as Python writes one (the sign included); the exponent's sign only after e/E.
_NUMBER = re.compile(r'[+-]?(?:\d[\w.]*|\.\d[\w.]*)(?:(?<=[eE])[+-]\d+)?')
_TOKEN = re.compile(r'[\w.+-]+|\S')
_OPERATOR = re.compile(r'[-+*/%()]')
_SM = re.compile(r'sm_\d+[a-z]?$')


@dataclass
class Diagnostic:
    line: int
    column: int
    end_column: int
    message: str
    code: str = 'cutile.directive'
    end_line: int = 0
    file: str = ''
    severity: str = 'error'

    def to_json(self, default_file):
        return {'line': self.line, 'column': self.column, 'end_line': self.end_line or self.line,
                'end_column': self.end_column, 'severity': self.severity, 'code': self.code,
                'message': self.message, 'file': self.file or default_file}


class DirectiveError(Exception):
    """A problem at columns [column, end_column) of the directive's line."""
    def __init__(self, column, end_column, message):
        super().__init__(message)
        self.column, self.end_column, self.message = column, max(end_column, column + 1), message


def _diagnostic(layout, column, end_column, message, **kwargs):
    """A diagnostic at columns [column, end_column) of a directive's joined text."""
    line, column = layout.place(column)
    end_line, end_column = layout.place(end_column, end=True)
    if end_line == line:
        end_column = max(end_column, column + 1)
    return Diagnostic(line, column, end_column, message, end_line=end_line, **kwargs)


@dataclass
class Value:
    """One argument as written: kind 'array' (dtype, shape, strides or None), 'list' (items,
    each an array), 'number' (a Python int, float or bool) or 'scalar' (dtype and value)."""
    kind: str
    column: int
    end_column: int
    dtype: str = None
    shape: list = None
    strides: list = None
    items: list = None
    value: object = None

    def to_json(self, layout):
        line, column = layout.place(self.column)
        end_line, end_column = layout.place(self.end_column, end=True)
        out = {'kind': self.kind, 'line': line, 'column': column, 'end_line': end_line,
               'end_column': end_column}
        for key in ('dtype', 'shape', 'strides', 'value'):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.items is not None:
            out['items'] = [item.to_json(layout) for item in self.items]
        return out


@dataclass
class Directive:
    line: int
    column: int
    end_column: int
    kernel: str = None        # the def's qualified name (Class.kernel inside a class)
    kernel_line: int = None   # the def's line
    params: list = None       # the def's parameter names, in order
    grid: list = None
    version: str = DEFAULT_VERSION
    sm: str = None
    args: dict = field(default_factory=dict)  # parameter -> Value, in parameter order
    layout: Layout = None     # where its columns are (they count along its joined lines)

    def to_json(self):
        return {'line': self.line, 'kernel': self.kernel, 'kernel_line': self.kernel_line,
                'grid': self.grid, 'version': self.version, 'sm': self.sm,
                'args': [dict(param=p, **v.to_json(self.layout)) for p, v in self.args.items()]}

    def diagnostic(self, column, end_column, message, **kwargs):
        """A diagnostic at columns [column, end_column) of the directive."""
        return _diagnostic(self.layout, column, end_column, message, **kwargs)


class _Cursor:
    """Reads one item's value; `base` is the column (1-based) of its first character."""
    def __init__(self, text, base):
        self.text, self.pos, self.base = text, 0, base

    def col(self, pos=None):
        return self.base + (self.pos if pos is None else pos)

    def peek(self):
        return self.text[self.pos] if self.pos < len(self.text) else ''

    def skip_space(self):
        while self.peek().isspace():
            self.pos += 1

    def fail(self, message, start=None, end=None):
        start = self.pos if start is None else start
        end = start + 1 if end is None else end
        raise DirectiveError(self.col(start), self.col(end), message)

    def token_end(self):
        m = _TOKEN.match(self.text, self.pos)
        return m.end() if m else self.pos + 1

    def what(self):
        """The token at the cursor, for messages."""
        return repr(self.text[self.pos:self.token_end()]) if self.peek() else 'the end'

    def expect(self, char, context):
        self.skip_space()
        if self.peek() != char:
            self.fail(f"expected '{char}' {context}, found {self.what()}", end=self.token_end())
        self.pos += 1

    def word(self):
        m = _WORD.match(self.text, self.pos)
        if not m:
            return None, self.pos
        self.pos = m.end()
        return m.group(), m.start()

    def expression_end(self):
        """Where the number or expression at the cursor ends: at a ',', ']' or ')' outside its
        own parentheses, or the end (trailing spaces excluded)."""
        pos, depth = self.pos, 0
        while pos < len(self.text):
            c = self.text[pos]
            if c == '(':
                depth += 1
            elif c in ',])' and depth == 0:
                break
            elif c == ')':
                depth -= 1
            pos += 1
        return len(self.text[:pos].rstrip())

    def number(self, what):
        """An int or float literal, or an integer expression; returns (value, start, end)."""
        self.skip_space()
        end = self.expression_end()
        span = self.text[self.pos:end]
        if not _NUMBER.fullmatch(span) and _OPERATOR.search(span):
            try:
                value = int_expressions.evaluate(span)
            except int_expressions.ExpressionError as e:
                self.fail(e.message, self.pos + e.start, self.pos + e.end)
            start, self.pos = self.pos, end
            return value, start, end
        m = _NUMBER.match(self.text, self.pos)
        if not m:
            self.fail(f'expected {what}, found {self.what()}')
        tok = m.group()
        try:
            value = int(tok, 0)
        except ValueError:
            try:
                value = float(tok)
            except ValueError:
                self.fail(f"'{tok}' is not a number", m.start(), m.end())
        self.pos = m.end()
        return value, m.start(), m.end()

    def integer(self, what):
        value, start, end = self.number(what)
        if not isinstance(value, int):
            self.fail(f"{what} must be an integer, not {self.text[start:end]}", start, end)
        return value, start, end


def _dtype_word(cur):
    name, start = cur.word()
    short = dtypes.canonical(name) if name else None
    if short is None:
        end = cur.pos if name else start + 1
        shown = repr(name) if name else cur.what()
        cur.fail(f"unknown dtype {shown}: one of {' '.join(dtypes.DTYPES)}"
                 " (or float32, int64, ... spelled out)", start, end)
    return short, start


def _array(cur, short, start):
    """DTYPE[D0,...(,strides=(S0,...))]; the cursor is at '['."""
    cur.pos += 1
    shape, strides, strides_at = [], None, None
    cur.skip_space()
    while cur.peek() != ']':
        if shape or strides_at is not None:
            cur.expect(',', 'between dimensions')
            cur.skip_space()
        if cur.text.startswith('strides', cur.pos):
            strides_at = cur.pos
            cur.pos += len('strides')
            cur.expect('=', "after 'strides'")
            cur.expect('(', "to open the strides")
            strides = []
            cur.skip_space()
            while cur.peek() != ')':
                if strides:
                    cur.expect(',', 'between strides')
                    cur.skip_space()
                    if cur.peek() == ')':
                        break
                strides.append(cur.integer('a stride (in elements)')[0])
                cur.skip_space()
            cur.pos += 1
            cur.skip_space()
            if cur.peek() != ']':
                cur.fail(f"expected ']' after the strides, found {cur.what()}")
            break
        extent, s, e = cur.integer('an extent')
        if extent < 0:
            cur.fail(f'extent {extent} is negative', s, e)
        shape.append(extent)
        cur.skip_space()
    cur.pos += 1
    if strides is not None and len(strides) != len(shape):
        cur.fail(f'{len(strides)} strides for {len(shape)} dimensions', strides_at, cur.pos - 1)
    return Value('array', cur.col(start), cur.col(), dtype=short, shape=shape, strides=strides)


def _scalar(cur, short, start):
    """DTYPE(NUMBER); the cursor is at '('."""
    cur.pos += 1
    cur.skip_space()
    word, wstart = cur.word()
    if word in ('True', 'False'):
        value, vs, ve = word == 'True', wstart, cur.pos
    elif word is not None:
        cur.fail(f"expected a number in {short}(...), found '{word}'", wstart, cur.pos)
    else:
        value, vs, ve = cur.number(f'a number in {short}(...)')
    cur.expect(')', f'to close {short}(')
    value = _typed(cur, short, value, vs, ve)
    return Value('scalar', cur.col(start), cur.col(), dtype=short, value=value)


def _typed(cur, short, value, start, end):
    """`value` as a `short` scalar holds it, or an error at [start, end)."""
    text = cur.text[start:end]
    if short == 'bool':
        if value in (0, 1) and not isinstance(value, float):
            return bool(value)
        cur.fail(f'bool(...) takes True, False, 0 or 1, not {text}', start, end)
    if dtypes.is_float(short):
        return float(value)
    if isinstance(value, float):
        cur.fail(f'{short}(...) takes an integer, not {text}', start, end)
    lo, hi = dtypes.int_range(short)
    if not lo <= int(value) <= hi:
        cur.fail(f'{text} does not fit in {short} ({lo} to {hi})', start, end)
    return int(value)


def _list(cur):
    start = cur.pos
    cur.pos += 1
    items = []
    cur.skip_space()
    while cur.peek() != ']':
        if items:
            cur.expect(',', 'between the arrays of a list')
            cur.skip_space()
            if cur.peek() == ']':
                break
        item = _value(cur, in_list=True)
        if item.kind != 'array':
            cur.fail('a list holds arrays (DTYPE[D0,...]) only', item.column - cur.base,
                     item.end_column - cur.base)
        first = items[0] if items else item
        if (item.dtype, len(item.shape)) != (first.dtype, len(first.shape)):
            cur.fail(f'the arrays of a list share dtype and rank: this is {item.dtype} of rank '
                     f'{len(item.shape)}, the first {first.dtype} of rank {len(first.shape)}',
                     item.column - cur.base, item.end_column - cur.base)
        items.append(item)
        cur.skip_space()
    cur.pos += 1
    if not items:
        cur.fail('an empty list: cuTile takes lists of one or more arrays', start, cur.pos)
    return Value('list', cur.col(start), cur.col(), items=items)


def _value(cur, in_list=False):
    cur.skip_space()
    if cur.peek() == '[' and not in_list:
        return _list(cur)
    start = cur.pos
    word, _ = cur.word()
    if word in ('True', 'False'):
        return Value('number', cur.col(start), cur.col(), value=word == 'True')
    if word is not None:
        cur.pos = start
        after = cur.text[start + len(word):start + len(word) + 1]
        if after not in ('[', '('):
            cur.fail(f"'{word}' is not a value: write an array (f32[1024]), a list of arrays, "
                     'a number, True/False or a typed scalar (i64(5))', start, start + len(word))
        short, start = _dtype_word(cur)
        return _array(cur, short, start) if after == '[' else _scalar(cur, short, start)
    value, s, e = cur.number('a value')
    return Value('number', cur.col(s), cur.col(e), value=value)


def _grid(cur):
    cur.skip_space()
    start = cur.pos
    if cur.peek() != '(':
        axes = [cur.integer('a grid extent')]
    else:
        cur.pos += 1
        axes = []
        cur.skip_space()
        while cur.peek() != ')':
            if axes:
                cur.expect(',', 'between grid extents')
                cur.skip_space()
                if cur.peek() == ')':
                    break
            axes.append(cur.integer('a grid extent'))
            cur.skip_space()
        cur.pos += 1
    if not 1 <= len(axes) <= 3:
        cur.fail(f'the grid has {len(axes)} axes: give one to three, grid=(X[,Y[,Z]])', start, cur.pos)
    for value, s, e in axes:
        if not 1 <= value <= GRID_MAX:
            cur.fail(f'grid extent {value} is out of range: each axis takes 1 to {GRID_MAX}', s, e)
    return [value for value, _, _ in axes]


def _items(text, base):
    """Splits the directive's tail into NAME=VALUE items at whitespace outside brackets; yields
    (name, name_column, value_text, value_column)."""
    pos, closing = 0, {'(': ')', '[': ']'}
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return
        start, stack = pos, []
        while pos < len(text) and (stack or not text[pos].isspace()):
            c = text[pos]
            if c in closing:
                stack.append((closing[c], pos))
            elif c in ')]':
                if not stack or stack[-1][0] != c:
                    raise DirectiveError(base + pos, base + pos + 1, f"unmatched '{c}'")
                stack.pop()
            pos += 1
        if stack:
            opener = stack[-1][1]
            raise DirectiveError(base + opener, base + opener + 1,
                                 f"'{text[opener]}' is never closed")
        item = text[start:pos]
        m = _NAME.match(item)
        if not m or m.end() >= len(item) or item[m.end()] != '=':
            raise DirectiveError(base + start, base + pos, f"expected NAME=VALUE, found '{item}'")
        if m.end() + 1 == len(item):
            raise DirectiveError(base + start + m.end(), base + pos, f"no value after '{m.group()}='")
        yield m.group(), base + start, item[m.end() + 1:], base + start + m.end() + 1


def _comment_start(text, pos):
    """Where a '#' outside brackets starts a trailing comment in `text` from `pos` (len(text)
    when none does)."""
    depth = 0
    for n in range(pos, len(text)):
        c = text[n]
        if c in '([':
            depth += 1
        elif c in ')]':
            depth -= 1
        elif c == '#' and depth <= 0:
            return n
    return len(text)


def parse_comment(comment, line, column, layout=None):
    """The directive in comment text `comment` (starting with '#') at `line`, 1-based `column`;
    None when it is not a launch directive. A '#' outside brackets ends it (a trailing comment:
    `# noqa: E501`). `layout`: where the columns of a directive joined from several lines are
    (directive_lines). Raises DirectiveError; the kernel is not known yet, so parameters are
    checked by bind()."""
    head = _HEAD.match(comment)
    if not head:
        return None
    comment = comment[:_comment_start(comment, head.end())].rstrip()
    if comment.endswith('\\'):
        at = column + len(comment) - 1
        raise DirectiveError(at, at + 1, "a directive line ending with '\\' continues on the next "
                                         'line, which must be a comment of its own (#   NAME=VALUE ...)')
    d = Directive(line, column, column + len(comment), layout=layout or Layout(line, column))
    d.head = (column + head.start(), column + head.end())
    d.given = []  # (name, column, end_column, Value)
    seen = {}
    for name, ncol, vtext, vcol in _items(comment[head.end():], column + head.end()):
        cur = _Cursor(vtext, vcol)
        if name in seen:
            raise DirectiveError(ncol, ncol + len(name),
                                 f"'{name}' is given twice (first at column {seen[name]})")
        seen[name] = ncol
        if name == 'grid':
            d.grid = _grid(cur)
        elif name == 'version':
            if vtext not in VERSIONS:
                cur.fail(f"version '{vtext}' is not one of {', '.join(VERSIONS)}", 0, len(vtext))
            d.version = vtext
            cur.pos = len(vtext)
        elif name == 'sm':
            if not _SM.match(vtext):
                cur.fail(f"sm '{vtext}' is not a target like sm_100 or sm_90a", 0, len(vtext))
            d.sm = vtext
            cur.pos = len(vtext)
        else:
            value = _value(cur)
            d.given.append((name.lstrip('%'), ncol, ncol + len(name), value))
        cur.skip_space()
        if cur.pos < len(vtext):
            cur.fail(f"unexpected {cur.what()} after the value of '{name}'", cur.pos, len(vtext))
    if d.grid is None:
        raise DirectiveError(*d.head, 'a launch directive needs grid=(X[,Y[,Z]])')
    if d.sm is None:
        d.sm = DEFAULT_SM.get(d.version)
    return d


def bind(d, kernel, kernel_line, params):
    """Ties directive `d` to the kernel def `kernel` with parameter names `params`; raises
    DirectiveError for unknown, repeated or missing parameters."""
    d.kernel, d.kernel_line, d.params = kernel, kernel_line, list(params)
    given = {}
    for name, col, end, value in d.given:
        if name not in params:
            raise DirectiveError(col, end, f"'{name}' is not a parameter of {kernel} "
                                           f"({', '.join(params)})")
        if name in given:
            raise DirectiveError(col, end, f"'{name}' is given twice (first at column {given[name][0]})")
        given[name] = (col, value)
    missing = [p for p in params if p not in given]
    if missing:
        raise DirectiveError(d.column, d.end_column,
                             f"{kernel}'s parameter{'s' if len(missing) > 1 else ''} "
                             f"{', '.join(missing)} {'are' if len(missing) > 1 else 'is'} not given "
                             "(every parameter needs NAME=VALUE)")
    d.args = {p: given[p][1] for p in params}


def _comments(source):
    """(text, line, 1-based column) of each comment; tokenize finds the real ones (not '#' in a
    string). A file tokenize cannot read is scanned line by line."""
    try:
        return [(t.string, t.start[0], t.start[1] + 1)
                for t in tokenize.generate_tokens(io.StringIO(source).readline)
                if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        out = []
        for n, text in enumerate(source.splitlines(), 1):
            stripped = text.lstrip()
            if stripped.startswith('#'):
                out.append((stripped, n, len(text) - len(stripped) + 1))
        return out


def _misspelt(text, line, col):
    """A warning for comment `text` that starts with 'tilesight' but is neither a launch
    directive nor a suppression (a typo turns a launch's check off unseen); else None."""
    m = _MARKER.match(text)
    if not m or _IGNORE.match(text):
        return None
    written = text[:m.end()]
    guess = difflib.get_close_matches(m.group(1).lower(), DIRECTIVE_WORDS, n=1, cutoff=0.6)
    if guess:
        hint = f"did you mean '# tilesight: {guess[0]}'?"
    else:
        hint = "tilesight reads '# tilesight: launch NAME=VALUE ...' and '# tilesight: ignore CODE'"
    return Diagnostic(line, col, col + len(written),
                      f"'{written}' is not a tilesight directive, so it does nothing: {hint}",
                      severity='warning')


def _defs(tree):
    """{first line (its first decorator's): (qualified name or None when unreachable from the
    module, def line, parameter names, has decorators)} of every def."""
    out = {}

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([child.lineno] + [dec.lineno for dec in child.decorator_list])
                a = child.args
                params = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
                name = None if prefix is None else prefix + child.name
                out[first] = (name, child.lineno, params, bool(child.decorator_list))
                visit(child, None)
            elif isinstance(child, ast.ClassDef):
                visit(child, None if prefix is None else prefix + child.name + '.')
            else:
                visit(child, prefix)
    visit(tree, '')
    return out


def parse_source(source):
    """(directives, diagnostics) of a kernel file's text. A file Python cannot parse has no
    directives (no kernel to tie them to): its import reports the syntax error."""
    directives, diags = [], []
    lines = source.splitlines()
    comments = _comments(source)
    own_line = {line: (text, col) for text, line, col in comments
                if line <= len(lines) and lines[line - 1].lstrip().startswith('#')}
    continuation = set()
    for text, line, col in comments:
        if line in continuation:
            continue
        if not _HEAD.match(text):
            warning = _misspelt(text, line, col)
            if warning:
                diags.append(warning)
            continue
        text, layout = directive_lines.join(text, line, col, own_line)
        continuation.update(layout.lines()[1:])
        try:
            directives.append(parse_comment(text, line, col, layout))
        except DirectiveError as e:
            diags.append(_diagnostic(layout, e.column, e.end_column, e.message))
    if not directives:
        return [], diags
    try:
        defs = _defs(ast.parse(source))
    except (SyntaxError, ValueError):
        return [], diags
    bound = []
    for d in directives:
        try:
            _bind_below(d, defs, lines)
            bound.append(d)
        except DirectiveError as e:
            diags.append(d.diagnostic(e.column, e.end_column, e.message))
    diags.sort(key=lambda x: (x.line, x.column))
    return bound, diags


def _bind_below(d, defs, lines):
    """Binds `d` to the def below it: only blank and comment lines may come between."""
    n = d.line + 1
    while n <= len(lines) and n not in defs:
        stripped = lines[n - 1].strip()
        if stripped and not stripped.startswith('#'):
            break
        n += 1
    if n not in defs:
        raise DirectiveError(*d.head, 'a launch directive goes right above a @ct.kernel def '
                                      '(only blank lines, comments and decorators between)')
    name, def_line, params, decorated = defs[n]
    if not decorated:
        raise DirectiveError(*d.head, f"def {lines[def_line - 1].split('def', 1)[1].split('(')[0].strip()} "
                                      f"(line {def_line}) is not decorated: a launch directive "
                                      'goes above a @ct.kernel def')
    if name is None:
        raise DirectiveError(*d.head, f'the kernel below (line {def_line}) is defined inside a '
                                      'function: tilesight can only reach kernels of the module or '
                                      'of its classes')
    bind(d, name, def_line, params)


def parse_file(path):
    with open(path, encoding='utf-8') as f:
        return parse_source(f.read())

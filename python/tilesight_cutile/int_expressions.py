"""Integer expressions in launch directives (`grid=(256 // 64,)`, `T=2**6`, `x=f32[4*1024]`):
integer literals joined by + - * // % ** and parentheses, evaluated from Python's own parse tree
(no eval: nothing but these operators ever runs)."""
import ast
import operator

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
# A power whose result would need more bits than this is refused, before it is computed.
MAX_BITS = 4096
WHAT = 'integer literals joined by + - * // % ** and parentheses'


class ExpressionError(Exception):
    """A problem at characters [start, end) of the expression's text."""
    def __init__(self, start, end, message):
        super().__init__(message)
        self.start, self.end, self.message = start, max(end, start + 1), message


def evaluate(text):
    """The integer `text` evaluates to; raises ExpressionError at the offending part."""
    try:
        tree = ast.parse(text, mode='eval')
    except SyntaxError:
        raise ExpressionError(0, len(text), f"'{text}' is not an integer expression ({WHAT})") from None
    return _Evaluator(text).value(tree.body)


class _Evaluator:
    def __init__(self, text):
        self.text = text
        self.raw = text.encode()

    def span(self, node):
        """[start, end) characters of `node` (ast counts UTF-8 bytes)."""
        def char(byte):
            return len(self.raw[:byte].decode('utf-8', 'replace'))
        return char(node.col_offset), char(node.end_col_offset)

    def fail(self, node, message):
        raise ExpressionError(*self.span(node), message)

    def source(self, node):
        start, end = self.span(node)
        return self.text[start:end]

    def value(self, node):
        if isinstance(node, ast.Constant):
            if type(node.value) is not int:
                self.fail(node, f"{self.source(node)} in an expression: it takes {WHAT} only")
            return node.value
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](self.value(node.operand))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            self.fail(node, f"'{self.source(node)}': / makes a float; use // for integer division")
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = self.value(node.left), self.value(node.right)
            if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and right == 0:
                self.fail(node, f"'{self.source(node)}' divides by zero")
            if isinstance(node.op, ast.Pow):
                if right < 0:
                    self.fail(node, f"'{self.source(node)}': a negative power makes a float")
                if abs(left) > 1 and right * abs(left).bit_length() > MAX_BITS:
                    self.fail(node, f"'{self.source(node)}' is too large")
            return _BINARY[type(node.op)](left, right)
        if isinstance(node, ast.Name):
            self.fail(node, f"'{node.id}' in an expression: it takes {WHAT} only")
        self.fail(node, f"'{self.source(node)}' is not allowed in an expression ({WHAT})")

#!/usr/bin/env python3
"""Translates the layouts of CuTe's C++ unit tests (NVIDIA/cutlass
test/unit/cute/core: composition, complement, inverse_right, inverse_left,
logical_divide, logical_product, coalesce) into tilesight's layout
expressions (DESIGN §4), one case per line, for tests/unit/cute_core_test.cpp.
Only the arguments are taken; the checks are CuTe's post-conditions, written
in the test.

  scripts/port_cute_tests.py CUTLASS_GIT_DIR > tests/unit/data/cute_core_cases.txt

CUTLASS_GIT_DIR is a clone (or bare mirror) of NVIDIA/cutlass; the cases are
read at its HEAD, whose commit the output names.
"""
import re
import subprocess
import sys

FILES = ["composition", "complement", "inverse_right", "inverse_left", "logical_divide", "logical_product",
         "coalesce"]
TOKEN = re.compile(r"\s*(-?\d+|[A-Za-z_][A-Za-z_0-9]*|::|[<>(){},;=])")


def tokens(text):
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip() == "":
                break
            raise ValueError(f"cannot read {text[pos:pos + 30]!r}")
        out.append(m.group(1))
        pos = m.end()
    return out


class Expr:
    """A translated C++ value: its tilesight text, and whether it is a shape (tuple) or a layout."""

    def __init__(self, text, kind):
        self.text, self.kind, self.dynamic = text, kind, False




def static_int(name):
    m = re.fullmatch(r"_(m?)(\d+)", name)
    return None if not m else (-1 if m.group(1) else 1) * int(m.group(2))


class Parser:
    def __init__(self, toks, env):
        self.t, self.i, self.env = toks, 0, env
        self.dynamic = False  # a run-time integer was read (C++'s is_static is false)

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def eat(self, tok):
        if self.peek() == tok:
            self.i += 1
            return True
        return False

    def need(self, tok):
        if not self.eat(tok):
            raise ValueError(f"expected {tok}, found {self.peek()} in {' '.join(self.t)}")

    def args(self, close):
        out = []
        if self.eat(close):
            return out
        while True:
            out.append(self.value())
            if self.eat(close):
                return out
            self.need(",")

    def braces(self):
        if self.eat("{"):
            self.need("}")

    def value(self):
        tok = self.peek()
        self.i += 1
        if re.fullmatch(r"-?\d+", tok):
            self.dynamic = True
            return Expr(tok, "int")
        if static_int(tok) is not None:
            self.braces()
            return Expr(str(static_int(tok)), "int")
        if tok in ("Int", "C"):
            self.need("<")
            v = self.value()
            self.need(">")
            self.braces()
            return v
        if tok == "E":
            self.need("<")
            idx = [a.text for a in self.args(">")]
            self.braces()
            return Expr("1" + "".join("@" + i for i in reversed(idx)), "int")
        if tok in ("Shape", "Stride"):
            self.need("<")
            elems = self.args(">")
            self.braces()
            return Expr("(" + ",".join(e.text for e in elems) + ")", "tuple")
        if tok in ("make_shape", "make_stride"):
            self.need("(")
            elems = self.args(")")
            return Expr("(" + ",".join(e.text for e in elems) + ")", "tuple")
        if tok == "Layout":
            self.need("<")
            parts = self.args(">")
            self.braces()
            return layout(parts)
        if tok == "make_layout":
            self.need("(")
            parts = self.args(")")
            if all(p.kind == "layout" for p in parts):
                return Expr("cat(" + ", ".join(p.text for p in parts) + ")", "layout")
            return layout(parts)
        if tok == "Swizzle":
            self.need("<")
            bms = self.args(">")
            self.braces()
            return Expr(",".join(b.text for b in bms), "swizzle")
        if tok == "ComposedLayout":
            self.need("<")
            sw, offset, inner = self.args(">")
            self.braces()
            assert offset.text == "0", "ComposedLayout with an offset"
            return Expr(f"swizzle({sw.text}, {inner.text})", "layout")
        if tok in ("composition", "complement", "size", "cosize", "coalesce", "logical_divide"):
            self.need("(")
            a = self.args(")")
            if tok == "composition" and a[0].kind == "swizzle":
                return Expr(f"swizzle({a[0].text}, {a[1].text})", "layout")
            kind = "int" if tok in ("size", "cosize") else "layout"
            return Expr(f"{tok}(" + ", ".join(x.text for x in a) + ")", kind)
        if tok in ("GenRowMajor", "GenColMajor"):
            self.braces()
            return Expr(tok, "order")
        if tok in self.env:
            self.dynamic |= self.env[tok].dynamic
            return self.env[tok]
        raise ValueError(f"unknown {tok!r} in {' '.join(self.t)}")


def compact_stride(shape):
    """The compact column-major stride of a shape's text, e.g. (4,(2,3)) -> (1,(4,8))."""
    tree = eval(re.sub(r"\(([^(),]*)\)", r"(\1,)", shape).replace("(", "[").replace(")", "]"))
    acc = [1]

    def walk(t):
        if isinstance(t, int):
            d = acc[0]
            acc[0] *= t
            return str(d)
        return "(" + ",".join(walk(e) for e in t) + ")"
    return walk(tree)


def layout(parts):
    """CuTe's make_layout(shape [, stride]) and Layout<Shape, Stride>: column-major without a stride,
    written with its strides (a bare tuple is a shape, a by-mode tiler, in tilesight's language)."""
    shape = parts[0].text
    if len(parts) == 2 and parts[1].kind == "order":
        return Expr(f"make_layout({shape}, {parts[1].text})", "layout")
    if len(parts) == 1:
        return Expr(f"{shape}:{compact_stride(shape)}", "layout")
    return Expr(f"{shape}:{parts[1].text}", "layout")


def cases(source, name):
    body = source[source.index("TEST(CuTe_core"):]
    body = re.sub(r"//[^\n]*", "", body)
    body = re.sub(r"CUTLASS_TRACE_HOST\([^;]*\);", "", body)
    env, out = {}, []
    for stmt in body.split(";"):
        toks = tokens(stmt.replace("using namespace cute", ""))
        while toks and toks[0] in "{}":
            toks = toks[1:]
        if not toks:
            continue
        if toks[0] == "TEST":
            toks = toks[toks.index(")") + 1:]
            while toks and toks[0] in "{}":
                toks = toks[1:]
        if not toks:
            continue
        if toks[:1] == ["auto"]:
            p = Parser(toks[3:], env)
            env[toks[1]] = p.value()
            env[toks[1]].dynamic = p.dynamic
        elif toks[0].startswith("test_"):
            p = Parser(toks[2:], env)
            args = p.args(")")
            out.append("\t".join([name, "dynamic" if p.dynamic else "static"] + [a.text for a in args]))
    return out


def main():
    git = sys.argv[1]
    commit = subprocess.run(["git", "--git-dir", git, "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    print(f"# CuTe's unit-test cases, from NVIDIA/cutlass @ {commit} test/unit/cute/core/*.cpp,")
    print("# translated by scripts/port_cute_tests.py: FUNCTION<TAB>static|dynamic (C++ is_static of the arguments)<TAB>ARG...; the checks are in tests/unit/cute_core_test.cpp.")
    for f in FILES:
        src = subprocess.run(["git", "--git-dir", git, "show", f"HEAD:test/unit/cute/core/{f}.cpp"],
                             capture_output=True, text=True, check=True).stdout
        for line in cases(src, f):
            print(line)


if __name__ == "__main__":
    main()

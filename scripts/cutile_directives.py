#!/usr/bin/env python3
"""The launch directives of the cuTile corpus, kept equal to its manifest.

usage: scripts/cutile_directives.py [--write] [DIR]

DIR (default tests/corpus/cutile) holds cuTile Python kernels and manifest.txt, one
compile a line: KIND FILE KERNEL GRID NAME=SPEC... (scripts/build_cutile_corpus.sh).
Each manifest line has its launch written in the Python source as a directive, a
comment line directly above the kernel's first decorator, in manifest order:

    # tilesight: launch grid=(16,) a=f32[4096] b=f32[4096] out=f32[4096] TILE=256

Without --write: every manifest line must have exactly its directive and every
directive its manifest line; the differences are listed and the exit status is 1.
With --write: the directives above each kernel are replaced by those of the
manifest (running it twice changes nothing).
"""
import argparse
import ast
import pathlib
import sys

PREFIX = "# tilesight: launch"


def fail(message):
    sys.exit(f"cutile_directives: {message}")


def grid_text(grid):
    """'16' -> '(16,)', '3,5' -> '(3,5)'."""
    axes = grid.split(",")
    return "(" + ",".join(axes) + ("," if len(axes) == 1 else "") + ")"


def array_text(spec):
    """'array:f32:64x128' -> 'f32[64,128]'."""
    kind, dtype, shape = spec.split(":")
    if kind != "array":
        raise ValueError(f"expected array:DTYPE:SHAPE, got {spec}")
    return f"{dtype}[{shape.replace('x', ',')}]"


def scalar_text(dtype, value):
    # A float literal reads as f32 and a plain integer as i32 (what cuTile gives a Python
    # float or int); any other dtype is written typed.
    if dtype == "f32":
        return repr(float(value))
    if dtype == "i32":
        return str(int(value))
    return f"{dtype}({value})"


def value_text(spec):
    """One compile.py argument spec as the directive writes it."""
    kind, _, rest = spec.partition(":")
    if kind == "array":
        return array_text(spec)
    if kind == "list":
        return "[" + ", ".join(array_text(a) for a in rest.split(";")) + "]"
    if kind == "const":
        return rest
    if kind == "scalar":
        dtype, _, value = rest.partition(":")
        if not value:
            raise ValueError(f"scalar {spec} has no value; a directive needs one")
        return scalar_text(dtype, value)
    raise ValueError(f"unknown argument kind in {spec}")


def kernels_of(source, path):
    """{name: (first decorator's 0-based line, [parameter names])} of the @ct.kernel functions."""
    found = {}
    for node in ast.walk(ast.parse(source, str(path))):
        if not isinstance(node, ast.FunctionDef):
            continue
        for d in node.decorator_list:
            target = d.func if isinstance(d, ast.Call) else d
            if isinstance(target, ast.Attribute) and target.attr == "kernel":
                first = min(x.lineno for x in node.decorator_list) - 1
                params = [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
                found[node.name] = (first, params)
    return found


def directive(kind, grid, args, params, where):
    """The directive line of one manifest line, its arguments in the kernel's parameter order."""
    given = {}
    for a in args:
        name, _, spec = a.partition("=")
        given[name] = spec
    if sorted(given) != sorted(params):
        raise ValueError(f"{where}: the manifest gives {sorted(given)}, the kernel takes {params}")
    words = [PREFIX, f"grid={grid_text(grid)}"]
    if "@" in kind:
        words.append("version=" + kind.partition("@")[2])
    words += [f"{p}={value_text(given[p])}" for p in params]
    return " ".join(words)


def read_manifest(corpus):
    """[(file, kernel, kind, grid, args, manifest line number)] of manifest.txt."""
    entries = []
    for n, raw in enumerate((corpus / "manifest.txt").read_text().split("\n"), 1):
        fields = raw.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) < 4:
            fail(f"manifest.txt:{n}: expected KIND FILE KERNEL GRID ARGS..., got: {raw}")
        entries.append((fields[1], fields[2], fields[0], fields[3], fields[4:], n))
    return entries


def expected_directives(corpus, entries):
    """{file: {kernel: [directive lines]}} from the manifest, and the kernels of each file."""
    want, kernels = {}, {}
    for file, kernel, kind, grid, args, n in entries:
        path = corpus / file
        if not path.is_file():
            fail(f"manifest.txt:{n}: no file {file}")
        if file not in kernels:
            kernels[file] = kernels_of(path.read_text(), path)
        if kernel not in kernels[file]:
            fail(f"manifest.txt:{n}: {file} has no @ct.kernel {kernel}")
        try:
            line = directive(kind, grid, args, kernels[file][kernel][1], f"manifest.txt:{n}")
        except ValueError as e:
            fail(str(e))
        want.setdefault(file, {}).setdefault(kernel, []).append(line)
    return want


def directive_block(lines, first):
    """The 0-based line range [start, first) of the directive lines directly above line `first`."""
    start = first
    while start > 0 and lines[start - 1].strip().startswith(PREFIX):
        start -= 1
    return start, first


def python_files(corpus):
    return sorted(p.relative_to(corpus).as_posix()
                  for d in ("kernels", "bugs") for p in (corpus / d).glob("*.py"))


def check(corpus, want):
    """The differences between the manifest and the directives in the sources, as messages."""
    problems = []
    for file in python_files(corpus):
        path = corpus / file
        source = path.read_text()
        lines = source.split("\n")
        placed = set()
        for kernel, (first, _) in sorted(kernels_of(source, path).items()):
            start, end = directive_block(lines, first)
            placed.update(range(start, end))
            have = [lines[i].strip() for i in range(start, end)]
            expect = want.get(file, {}).get(kernel, [])
            for i in range(max(len(have), len(expect))):
                h = have[i] if i < len(have) else None
                e = expect[i] if i < len(expect) else None
                if h == e:
                    continue
                where = f"{file}:{start + i + 1}" if h is not None else f"{file}:{first + 1}"
                if h is None:
                    problems.append(f"{where}: {kernel}: missing directive: {e}")
                elif e is None:
                    problems.append(f"{where}: {kernel}: directive without a manifest line: {h}")
                else:
                    problems.append(f"{where}: {kernel}: directive\n    {h}\n  should be\n    {e}")
        for i, line in enumerate(lines):
            if line.strip().startswith(PREFIX) and i not in placed:
                problems.append(f"{file}:{i + 1}: directive not directly above a @ct.kernel: {line.strip()}")
    return problems


def write(corpus, want):
    """Replaces the directives above every kernel by the manifest's; returns the files changed."""
    changed = []
    for file in python_files(corpus):
        path = corpus / file
        source = path.read_text()
        lines = source.split("\n")
        # From the bottom up, so the lines of the kernels above stay where the parse put them.
        for kernel, (first, _) in sorted(kernels_of(source, path).items(), key=lambda k: -k[1][0]):
            start, end = directive_block(lines, first)
            lines[start:end] = want.get(file, {}).get(kernel, [])
        text = "\n".join(lines)
        if text != source:
            path.write_text(text)
            changed.append(file)
    return changed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default="tests/corpus/cutile")
    parser.add_argument("--write", action="store_true", help="write the directives into the sources")
    args = parser.parse_args()
    corpus = pathlib.Path(args.corpus)
    if not (corpus / "manifest.txt").is_file():
        fail(f"{corpus}: no manifest.txt (give the corpus folder, default tests/corpus/cutile)")
    entries = read_manifest(corpus)
    want = expected_directives(corpus, entries)
    if args.write:
        changed = write(corpus, want)
        print(f"{len(entries)} manifest lines; directives written in {len(changed)} files")
        return 0
    problems = check(corpus, want)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} differences between manifest.txt and the directives "
              f"(scripts/cutile_directives.py --write rewrites them)")
        return 1
    print(f"{len(entries)} manifest lines, each with its directive")
    return 0


if __name__ == "__main__":
    sys.exit(main())

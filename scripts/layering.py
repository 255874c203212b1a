#!/usr/bin/env python3
"""The folder dependency graph of the C++ sources, from their includes.

Prints each folder with the folders it includes and how many includes make
each edge, then fails (exit 1) on a cycle between folders or on an edge the
layers forbid (docs/architecture.md "Layers"). The build enforces the layers
too (cmake/IncludeRoots.cmake); this check also sees includes that stay inside
one library, and names the files that make a cycle.

  scripts/layering.py [REPO_ROOT]
"""
import collections
import pathlib
import re
import sys

ROOTS = ("analysis", "codegen", "server", "tests", "bench", "fuzz")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# (from-prefix, to-prefix, why): no folder under from-prefix may include one under to-prefix.
FORBIDDEN = [
    ("analysis", "codegen", "analysis is text in, facts out; codegen reads it"),
    ("analysis", "server", "nothing includes server/"),
    ("codegen", "server", "nothing includes server/"),
    ("analysis", "tests", "the product never includes the tests"),
    ("codegen", "tests", "the product never includes the tests"),
    ("server", "tests", "the product never includes the tests"),
    ("codegen", "analysis/checks", "codegen reads a VerifiedProgram, not the checks' facts"),
    ("server/lsp", "codegen", "the language server does not link codegen/ (it runs `tilesight run`)"),
]
# (from-prefix, to-prefix): edges FORBIDDEN names that the design allows.
ALLOWED = [
    # The soundness harness checks the interpreter's values against the checks' facts: it sits
    # above both, and nothing in codegen/ but the executable and the tests includes it.
    ("codegen/soundness", "analysis/checks"),
]


def folder_of(path: str) -> str:
    """analysis/ir/ir.h -> analysis/ir; analysis/analysis.h -> analysis (the front door)."""
    return str(pathlib.PurePosixPath(path).parent)


def under(folder: str, prefix: str) -> bool:
    return folder == prefix or folder.startswith(prefix + "/")


def graph(root: pathlib.Path):
    """folder -> included folder -> [files that include it]."""
    edges = collections.defaultdict(lambda: collections.defaultdict(list))
    for top in ROOTS:
        for f in sorted((root / top).rglob("*")):
            if f.suffix not in (".h", ".cpp", ".def", ".inc") or not f.is_file():
                continue
            if "node_modules" in f.parts:
                continue  # the editor tests' npm packages, not our sources
            rel = f.relative_to(root).as_posix()
            src = folder_of(rel)
            edges[src]
            for inc in INCLUDE.findall(f.read_text(errors="replace")):
                if "/" not in inc or inc.split("/")[0] not in ROOTS:
                    continue  # a header beside the file, or a system/third-party one
                dst = folder_of(inc)
                if dst != src:
                    edges[src][dst].append(rel)
    return edges


def cycles(edges):
    """Every strongly connected component of more than one folder (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    edges = graph(root)
    for src in sorted(edges):
        deps = ", ".join(f"{d} ({len(files)})" for d, files in sorted(edges[src].items()))
        print(f"{src} -> {deps or '-'}")
    failed = False
    for comp in cycles(edges):
        failed = True
        print(f"error: folder cycle: {' <-> '.join(comp)}", file=sys.stderr)
        for a in comp:
            for b in comp:
                for f in sorted(set(edges[a].get(b, []))):
                    print(f"  {f} includes {b}/", file=sys.stderr)
    for src in sorted(edges):
        for dst, files in sorted(edges[src].items()):
            for frm, to, why in FORBIDDEN:
                if under(src, frm) and under(dst, to) and not any(
                        under(src, a) and under(dst, b) for a, b in ALLOWED):
                    failed = True
                    print(f"error: {src} includes {dst} ({why}): {', '.join(sorted(set(files)))}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

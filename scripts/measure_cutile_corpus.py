#!/usr/bin/env python3
"""How tilesight does on the cuTile bytecode corpus (issue 34, acceptance 1), or with --python on
its Python files (issue 35, acceptance 1: `tilesight check FILE.py` compiles each launch directive
with cuTile, then checks it).

usage: scripts/measure_cutile_corpus.py [DIR] [--tilesight build/tilesight] [--python]
           [--exceptions scripts/cutile_corpus_exceptions.txt] [--jobs N] [--verbose]

--python checks kernels/*.py and bugs/*.py (those with a `# tilesight: launch` directive) instead of
the bytecode; a twin that cuTile refuses (`# BUG: cutile-error`) must then get cuTile's error as a
cutile.compile diagnostic at that line. cuTile must be importable by TILESIGHT_PYTHON (else
python3), with TILESIGHT_CUTILE_PKG put on its PYTHONPATH; exit 77 (skipped) when it is not.

DIR (default tests/corpus/cutile, README there) holds correct kernels compiled at
four versions (kernels/*.tilebc) and buggy twins compiled at 13.3
(bugs/*.tilebc, their Python source bugs/NAME.py). Every file is checked with
the launch file beside it (tilesight finds it by name). A twin marks each line
where a diagnostic is expected with a trailing comment
    # BUG: CODE error|warning
Every diagnostic on a correct kernel is a false positive. A marker is found when
a diagnostic with its code is reported at that Python line of the twin; for a
race the line may instead be the diagnostic's other access (a note at that
line), since a race is one report naming both accesses. Any other diagnostic
on a twin is a false positive. Severities that differ from the marker are
listed, and are not failures.

Exceptions (the file given by --exceptions) name, one a line,
    FILE:LINE | CODE | KIND | REASON
with FILE relative to DIR, KIND `extra` (a diagnostic allowed beside the
marked ones: a consequence of the seeded bug), `false-positive` or `miss` (a
known failure, with the reason it is not fixed yet). An exception that no
longer occurs is stale and fails the run, as does any failure not excepted.
Run from the repository root (the debug info names files relative to it).
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys

MARKER = re.compile(r"#\s*BUG:\s*([\w.-]+)\s+(error|warning)\b")
REJECTED = re.compile(r"#\s*BUG:\s*cutile-error\b")  # cuTile refuses the twin: no bytecode
# Notes that say where else a diagnostic is, not what it is about.
CONTEXT_NOTE = re.compile(r"^(Tile IR \(line|inlined from here)")


def cutile_env():
    """The environment in which tilesight's Python finds cuTile; None when it cannot."""
    env = dict(os.environ)
    pkg = env.get("TILESIGHT_CUTILE_PKG")
    if pkg:
        env["PYTHONPATH"] = pkg + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    python = env.get("TILESIGHT_PYTHON", "python3")
    ok = subprocess.run([python, "-c", "import cuda.tile"], env=env, capture_output=True).returncode == 0
    return env if ok else None


def check(tilesight, path, env=None):
    """The diagnostics of `tilesight check` on one bytecode (or Python) file."""
    out = subprocess.run([tilesight, "check", "--format=json", str(path)],
                         capture_output=True, text=True, timeout=300, env=env)
    if out.returncode not in (0, 1):
        return [{"code": "exit", "severity": "error", "file": str(path), "line": 0,
                 "message": f"exit {out.returncode}: {out.stderr.strip()[:200]}", "notes": []}]
    return json.loads(out.stdout)["diagnostics"]


def markers(py):
    """{line: (code, severity)} of a twin's `# BUG:` markers, 1-based lines."""
    found = {}
    for i, line in enumerate(py.read_text().split("\n")):
        m = MARKER.search(line)
        if m:
            found[i + 1] = (m.group(1), m.group(2))
    return found


def read_exceptions(path):
    table = {}
    if not path.exists():
        return table
    for raw in path.read_text().split("\n"):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) != 4 or fields[2] not in ("extra", "false-positive", "miss") or not fields[3]:
            sys.exit(f"{path}: malformed exception (FILE:LINE | CODE | KIND | REASON): {line}")
        table[(fields[0], fields[1], fields[2])] = fields[3]
    return table


def describe(d):
    return f"{d['severity']} [{d['code']}] {d['message']}"[:200]


def twin_lines(d, code):
    """The lines a diagnostic of `code` stands for: its own, and for a race its other access."""
    lines = {d["line"]}
    if code.startswith("race."):
        lines |= {n["line"] for n in d.get("notes", []) if not CONTEXT_NOTE.match(n["message"])}
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default="tests/corpus/cutile")
    ap.add_argument("--tilesight", default="build/tilesight")
    ap.add_argument("--exceptions", default="scripts/cutile_corpus_exceptions.txt")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--python", action="store_true", help="check the Python files (issue 35)")
    a = ap.parse_args()
    root = pathlib.Path(a.dir)
    exceptions = read_exceptions(pathlib.Path(a.exceptions))
    used = set()
    env = None
    if a.python:
        env = cutile_env()
        if env is None:
            print("SKIP: cuda.tile is not importable by", os.environ.get("TILESIGHT_PYTHON", "python3"),
                  "(set TILESIGHT_CUTILE_PKG or TILESIGHT_PYTHON)")
            return 77
        directed = [p for p in sorted(root.glob("*/*.py")) if "# tilesight: launch" in p.read_text()]
        kernels = [p for p in directed if p.parent.name == "kernels"]
        twins = [p for p in directed if p.parent.name == "bugs"]
    else:
        kernels = sorted((root / "kernels").glob("*.tilebc"))
        twins = sorted((root / "bugs").glob("*.tilebc"))
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = dict(zip(kernels + twins, pool.map(lambda p: check(a.tilesight, p, env), kernels + twins)))

    failures, excused = [], []

    def report(file, line, code, kind, text):
        key = (f"{file}:{line}", code, kind)
        if key in exceptions:
            used.add(key)
            excused.append(f"{kind}: {file}:{line}: {text} ({exceptions[key]})")
        else:
            failures.append(f"{kind}: {file}:{line}: {text}")

    fp_kernels = 0
    for path in kernels:
        for d in results[path]:
            fp_kernels += 1
            report(f"kernels/{path.name}", d["line"], d["code"], "false-positive", describe(d))

    bugs = found = fp_twins = 0
    severity_off = []
    rejected = 0
    for py in sorted((root / "bugs").glob("*.py")):
        if REJECTED.search(py.read_text()):
            rejected += 1
            if a.python:  # cuTile's own error, at the marked line
                line = next(i + 1 for i, t in enumerate(py.read_text().split("\n")) if REJECTED.search(t))
                if not any(d["code"] == "cutile.compile" and d["line"] == line for d in results.get(py, [])):
                    failures.append(f"miss: bugs/{py.name}:{line}: cuTile's error not reported there: "
                                    f"{[describe(d) for d in results.get(py, [])]}")
            continue
        marks = markers(py)
        files = [p for p in twins if p == py or p.name.startswith(py.stem + ".")]
        if not files:
            failures.append(f"missing: bugs/{py.name} has markers but no bytecode")
            continue
        diags = [d for p in files for d in results[p]]
        explained = set()
        for line, (code, sev) in sorted(marks.items()):
            bugs += 1
            hits = [i for i, d in enumerate(diags) if d["code"] == code and line in twin_lines(d, code)]
            if not hits:
                report(f"bugs/{py.name}", line, code, "miss", f"{code} {sev} not reported")
                continue
            found += 1
            explained.update(hits)
            if not any(diags[i]["severity"] == sev for i in hits):
                severity_off.append(f"bugs/{py.name}:{line}: {code}: marked {sev}, "
                                    f"reported {diags[hits[0]]['severity']}")
        for i, d in enumerate(diags):
            if i in explained:
                continue
            key = (f"bugs/{py.name}:{d['line']}", d["code"], "extra")
            if key in exceptions:
                used.add(key)
                continue
            fp_twins += 1
            report(f"bugs/{py.name}", d["line"], d["code"], "false-positive", describe(d))

    print(f"correct kernels: {len(kernels)} files, {fp_kernels} diagnostics (false positives)")
    print(f"seeded bugs: {found} of {bugs} marked lines found in {len(twins)} twins "
          f"({len(severity_off)} with another severity; {rejected} twins rejected by cuTile)")
    print(f"twins: {fp_twins} other diagnostics (false positives)")
    stale = [k for k in exceptions if k not in used]
    for k in stale:
        failures.append(f"stale exception: {' | '.join(k)} no longer occurs: remove it")
    for f in failures:
        print("  " + f)
    if a.verbose or excused:
        for e in excused:
            print("  excepted " + e)
    for s in severity_off:
        print("  severity: " + s)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

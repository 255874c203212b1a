#!/usr/bin/env python3
"""How tilesight does on a corpus of real kernels (issue 13).

usage: scripts/measure_real_corpus.py [DIR] [--tilesight build/tilesight] [--verbose]

DIR (default tests/corpus/real) holds correct kernels (*.tile) and their buggy
twins (bugs/*.tile). A twin marks each seeded bug on a line of its own, above
the op where it should be reported:
    // seeded-bug: CODE error|warning: what is wrong
Every diagnostic on a correct kernel is a false positive. A seeded bug is found
when a diagnostic with its code is reported on the first line after the marker
that is not a comment; the severity is compared too. Each file is checked
with the options of its first line (`// tilesight-options: ...`), and with
--split-input-file when it holds `// -----` chunks.
"""
import argparse
import json
import pathlib
import re
import shlex
import subprocess
import sys

MARKER = re.compile(r"//\s*seeded-bug:\s*([\w.-]+)\s+(error|warning)\b")


def options(text):
    first = text.split("\n", 1)[0]
    opts = shlex.split(first.split(":", 1)[1]) if first.startswith("// tilesight-options:") else []
    if "\n// -----" in text:
        opts.append("--split-input-file")
    return opts


def diagnostics(tilesight, path, text):
    out = subprocess.run([tilesight, "check", "--format=json"] + options(text) + [str(path)],
                         capture_output=True, text=True, timeout=300)
    return json.loads(out.stdout)["diagnostics"]


def markers(text):
    """(marker line, target line, code, severity, description), 1-based lines."""
    lines = text.split("\n")
    found = []
    for i, line in enumerate(lines):
        m = MARKER.search(line)
        if not m:
            continue
        target = i + 1
        while target < len(lines) and lines[target].strip().startswith("//"):
            target += 1
        found.append((i + 1, target + 1, m.group(1), m.group(2), line.split(":", 2)[-1].strip()))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default="tests/corpus/real")
    ap.add_argument("--tilesight", default="build/tilesight")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    root = pathlib.Path(a.dir)
    false_pos, bugs, found, severity_off = [], 0, 0, []
    missed = []
    for path in sorted(root.glob("*.tile")):
        text = path.read_text()
        for d in diagnostics(a.tilesight, path, text):
            false_pos.append(f"{path.name}:{d['line']}: {d['severity']} [{d['code']}] {d['message']}")
    for path in sorted((root / "bugs").glob("*.tile")):
        text = path.read_text()
        diags = diagnostics(a.tilesight, path, text)
        for mline, target, code, sev, what in markers(text):
            bugs += 1
            hits = [d for d in diags if d["code"] == code and d["line"] == target]
            if not hits:
                missed.append(f"bugs/{path.name}:{target}: {code} {sev}: {what[:110]}")
                continue
            found += 1
            if not any(d["severity"] == sev for d in hits):
                severity_off.append(f"bugs/{path.name}:{target}: {code}: marked {sev}, reported {hits[0]['severity']}")
    print(f"correct kernels: {len(list(root.glob('*.tile')))} files, {len(false_pos)} diagnostics (false positives)")
    print(f"seeded bugs: {found} of {bugs} found ({len(severity_off)} with another severity)")
    if a.verbose or false_pos:
        for f in false_pos:
            print("  false positive: " + f[:220])
    if a.verbose or missed:
        for m in missed:
            print("  missed: " + m)
    if a.verbose or severity_off:
        for s in severity_off:
            print("  severity: " + s)
    return 0 if not false_pos and found == bugs and not severity_off else 1


if __name__ == "__main__":
    sys.exit(main())

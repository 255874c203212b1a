#!/usr/bin/env python3
"""What `check --prove` proves on the cuTile bytecode corpus (issue 37), with no launch given and
with each kernel's launch.

usage: scripts/measure_proofs.py [DIR] [--tilesight build/tilesight] [--jobs N] [--verbose]

DIR (default tests/corpus/cutile) holds correct kernels (kernels/*.tilebc, four bytecode versions)
and buggy twins (bugs/*.tilebc, 13.3) whose Python sources mark each expected diagnostic with
`# BUG: CODE severity` (README there). Each file is checked with `--prove` twice: copied alone into
a temporary folder (no launch file beside it: every grid and size is open) and in place (its
launch file beside it). For every view access the `prove.access` remark says one of: in range for
every launch, for every launch that keeps the entry's contract, for this launch, out of range for
a launch that keeps the contract, undecided, never runs.

Printed: per mode, the accesses of the correct kernels by outcome and the share proved (every
launch or every launch keeping the contract); "out of range" on a correct kernel is a false
positive. For the twins, each `bounds.*` marker counts as found when an "out of range" remark
lands on its Python line. Exit 1 on a false positive without the launch. Run from the repository
root (the debug info names files relative to it).
"""
import argparse
import collections
import concurrent.futures
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

MARKER = re.compile(r"#\s*BUG:\s*(bounds\.[\w-]+)\s+(error|warning)\b")
REMARK = re.compile(r"^(?P<file>[^:\n]+\.py):(?P<line>\d+):\d+: remark: \S+ (?P<what>.*) \[prove\.access\]$", re.M)
OUTCOMES = [
    ("every", "in range for every launch that keeps"),  # checked before "every launch"
    ("every", "in range for every launch"),
    ("this", "in range for this launch"),
    ("fails", "out of range for"),
    ("undecided", "undecided"),
    ("never", "never runs"),
]


def outcome(what):
    if what.startswith("in range for every launch that keeps"):
        return "contract"
    for name, prefix in OUTCOMES:
        if what.startswith(prefix):
            return name
    return "other"


def check(tilesight, path, alone):
    with tempfile.TemporaryDirectory() as tmp:
        target = path
        if alone:
            target = pathlib.Path(tmp) / path.name
            shutil.copy(path, target)
        r = subprocess.run([tilesight, "check", "--prove", str(target)], capture_output=True, text=True)
    return [(m["file"], int(m["line"]), outcome(m["what"]), m["what"]) for m in REMARK.finditer(r.stdout)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default="tests/corpus/cutile")
    ap.add_argument("--tilesight", default="build/tilesight")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    root = pathlib.Path(a.dir)
    kernels = sorted((root / "kernels").glob("*.tilebc"))
    bugs = sorted((root / "bugs").glob("*.tilebc"))
    if not kernels:
        print(f"no bytecode under {root}/kernels", file=sys.stderr)
        return 2
    false_positive = 0
    for alone in (True, False):
        mode = "no launch" if alone else "with the launch"
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            results = dict(zip(kernels + bugs, pool.map(lambda p: check(a.tilesight, p, alone), kernels + bugs)))
        counts = collections.Counter(o for k in kernels for (_, _, o, _) in results[k])
        total = sum(counts.values())
        proved = counts["every"] + counts["contract"] + (0 if alone else counts["this"])
        print(f"{mode}: correct kernels ({len(kernels)} files): {total} view accesses: "
              + ", ".join(f"{k} {counts[k]}" for k in ("every", "contract", "this", "fails", "undecided", "never"))
              + f"; proved {proved}/{total} = {100.0 * proved / max(total, 1):.1f}%")
        for k in kernels:
            for (f, line, o, what) in results[k]:
                if o == "fails":
                    print(f"  false positive: {f}:{line}: {what}")
                    false_positive += alone
                elif a.verbose and o == "undecided":
                    print(f"  undecided: {f}:{line}: {what}")
        found = marked = 0
        for b in bugs:
            src = root / "bugs" / (b.name.split(".")[0] + ".py")
            lines = src.read_text().splitlines() if src.exists() else []
            fails = {line for (f, line, o, _) in results[b] if o == "fails" and f.endswith(src.name)}
            for i, text in enumerate(lines, 1):
                if MARKER.search(text):
                    marked += 1
                    found += i in fails
                    if a.verbose and i not in fails:
                        print(f"  missed: {src}:{i}")
        print(f"{mode}: twins ({len(bugs)} files): bounds markers found as out of range {found}/{marked}")
    return 1 if false_positive else 0


if __name__ == "__main__":
    sys.exit(main())

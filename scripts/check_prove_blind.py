#!/usr/bin/env python3
"""check --prove on the blind dynamic-shape corpus (tests/corpus/prove_blind, README there):
every view access of a correct kernel (ok_*.tile) proved in range (for every launch or for every
launch that keeps the contract), and every seeded bug (bug_*.tile, the line marked
`// BUG: out-of-range`) found out of range, except the known misses below, each with its reason.
A known miss that is found now is stale and fails the run too.

usage: scripts/check_prove_blind.py [DIR] [--tilesight build/tilesight]
"""
import argparse
import pathlib
import re
import subprocess
import sys

# Bugs no launch can tell from the host's promise: the contract takes them in.
KNOWN_MISSES = {
    "bug_04_add2d_swapped_ids.tile": "swapped block ids: grid.y <= the rows' tiles of x is a contract clause "
                                     "(x's shape could be the transpose); found with a launch",
    "bug_05_colsum_wrong_dim.tile": "a loop bound from the other dimension's size: a clause relating two sizes, "
                                    "the host's promise that they agree",
}
REMARK = re.compile(r"^[^:\n]+:(\d+):\d+: remark: \S+ (.*) \[prove\.access\]$", re.M)


def remarks(tilesight, path):
    out = subprocess.run([tilesight, "check", "--prove", "--disable=bounds,race", str(path)],
                         capture_output=True, text=True).stdout
    return [(int(line), what) for line, what in REMARK.findall(out)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default="tests/corpus/prove_blind")
    ap.add_argument("--tilesight", default="build/tilesight")
    a = ap.parse_args()
    root = pathlib.Path(a.dir)
    failures, proved, total, found = [], 0, 0, 0
    for f in sorted(root.glob("ok_*.tile")):
        for line, what in remarks(a.tilesight, f):
            total += 1
            if what.startswith("in range for every launch"):
                proved += 1
            else:
                failures.append(f"{f.name}:{line}: not proved: {what}")
    bugs = sorted(root.glob("bug_*.tile"))
    for f in bugs:
        marked = [i for i, t in enumerate(f.read_text().splitlines(), 1) if "BUG: out-of-range" in t]
        hit = any(line in marked and what.startswith("out of range") for line, what in remarks(a.tilesight, f))
        found += hit
        if hit and f.name in KNOWN_MISSES:
            failures.append(f"{f.name}: found now, but listed as a known miss (stale)")
        if not hit and f.name not in KNOWN_MISSES:
            failures.append(f"{f.name}:{marked}: the seeded bug is not found out of range")
    print(f"correct kernels: {proved}/{total} view accesses proved; bugs found out of range: {found}/{len(bugs)} "
          f"({len(KNOWN_MISSES)} known misses)")
    for x in failures:
        print("  " + x)
    return 1 if failures or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Pins what tilesight reports on a corpus file as MLIR expected-* comments.

usage: scripts/pin_expectations.py FILE... [--tilesight build/tilesight]

For a buggy twin whose findings were reviewed by hand: every diagnostic and
note of `tilesight check` (with the options of the file's first line, and
--split-input-file when it has `// -----` chunks) becomes an
`// expected-<severity> @below {{<message>}}` line right above the line it
is reported on, so `check --verify-diagnostics` then pins the exact messages.
Existing expected-* lines are removed first. Review the diff before
committing: this records what the tool says, not what it should say.
"""
import argparse
import json
import pathlib
import subprocess
import sys

from measure_real_corpus import options  # the first line's options, --split-input-file


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--tilesight", default="build/tilesight")
    a = ap.parse_args()
    for name in a.files:
        path = pathlib.Path(name)
        lines = [l for l in path.read_text().split("\n") if "// expected-" not in l]
        clean = "\n".join(lines)
        opts = options(clean)
        # Messages name lines ("the loop at line 130"), which move when the
        # expectations go in: rerun on the pinned text until it is stable.
        text = clean
        for _ in range(5):
            path.write_text(text)
            out = subprocess.run([a.tilesight, "check", "--format=json"] + opts + [str(path)],
                                 capture_output=True, text=True, check=False)
            # Line (1-based) of the current text -> index of the clean line.
            index, k = {}, 0
            for i, l in enumerate(text.split("\n")):
                if "// expected-" not in l:
                    index[i + 1] = k
                    k += 1
            above = {}  # clean line index -> expectations to insert above it
            for d in json.loads(out.stdout)["diagnostics"]:
                above.setdefault(index[d["line"]], []).append((d["severity"], d["message"]))
                for n in d["notes"]:
                    above.setdefault(index[n["line"]], []).append(("note", n["message"]))
            result = []
            for i, line in enumerate(lines):
                indent = line[: len(line) - len(line.lstrip())]
                for severity, message in above.get(i, []):
                    result.append(f"{indent}// expected-{severity} @below {{{{{message}}}}}")
                result.append(line)
            pinned = "\n".join(result)
            if pinned == text:
                break
            text = pinned
        path.write_text(text)
        count = sum(len(v) for v in above.values())
        check = subprocess.run([a.tilesight, "check", "--verify-diagnostics"] + opts + [str(path)],
                               capture_output=True, text=True)
        print(f"{path}: {count} expectations pinned; --verify-diagnostics exit {check.returncode}")
        if check.returncode:
            print(check.stdout[-2000:])
    return 0


if __name__ == "__main__":
    sys.exit(main())

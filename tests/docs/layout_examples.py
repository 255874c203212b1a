#!/usr/bin/env python3
"""Runs every `$ tilesight layout ...` example of docs/layouts.md with the
built executable and compares what it prints (stdout, then stderr) with the
lines under the command in the document; and every picture the document
shows from a `<!-- picture: PATH: ARGS -->` comment is what `tilesight ARGS`
prints now. Usage: layout_examples.py TILESIGHT DOC. Exit 1 on any
difference, naming the document line."""
import os
import re
import shlex
import subprocess
import sys


def examples(lines):
    """(line number, argv after `tilesight`, expected output lines) for each
    `$ tilesight ...` line inside a fenced block."""
    inside, current = False, None
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            if current:
                yield current
            inside, current = not inside, None
            continue
        if not inside:
            continue
        if line.startswith("$ tilesight "):
            if current:
                yield current
            current = (number, shlex.split(line[len("$ tilesight "):]), [])
        elif current:
            current[2].append(line.rstrip())


def pictures(lines):
    """(line number, path, argv) of each picture comment."""
    for number, line in enumerate(lines, 1):
        m = re.match(r"<!-- picture: (\S+): (.*) -->$", line.strip())
        if m:
            yield number, m.group(1), shlex.split(m.group(2))


def main():
    tilesight, doc = sys.argv[1], sys.argv[2]
    with open(doc, encoding="utf-8") as f:
        lines = f.read().splitlines()
    failures = count = 0
    for number, argv, expected in examples(lines):
        count += 1
        run = subprocess.run([tilesight] + argv, capture_output=True, text=True, timeout=60)
        got = [l.rstrip() for l in (run.stdout + run.stderr).splitlines()]
        while got and not got[-1]:
            got.pop()
        while expected and not expected[-1]:
            expected.pop()
        if got != expected:
            failures += 1
            print(f"{doc}:{number}: `tilesight {shlex.join(argv)}` printed:")
            print("\n".join("    " + l for l in got))
            print("  the document shows:")
            print("\n".join("    " + l for l in expected))
    shown = 0
    for number, path, argv in pictures(lines):
        shown += 1
        run = subprocess.run([tilesight] + argv, capture_output=True, text=True, timeout=60)
        with open(os.path.join(os.path.dirname(doc), path), encoding="utf-8") as f:
            kept = f.read()
        if run.returncode != 0 or run.stdout != kept:
            failures += 1
            print(f"{doc}:{number}: {path} is not what `tilesight {shlex.join(argv)}` draws now "
                  f"(rc {run.returncode}); regenerate it with that command")
    print(f"{count} examples and {shown} pictures, {failures} differ")
    if count == 0:
        print("no examples found: the document's format changed?")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Measure tilesight against NVIDIA cuda-tile's lit tests (issue 2, acceptance 2).

Usage: scripts/measure_cuda_tile_lit.py CUDA_TILE_CHECKOUT [--tilesight build/tilesight] [--verbose]

The checkout is only read; nothing of it is copied into this repository.
- valid files: RUN lines expect success (no `not`), no expected-error; must give zero errors
  under --split-input-file.
- the dataflow checks (issue 5) on the valid files: every bounds.*, layout.overlap,
  subbyte.align and race.* diagnostic there (any severity) is listed, for review: those files
  test compiler passes, not race-freedom, so each finding must be a true one under the spec.
- invalid files: every `expected-error` designates a line (MLIR's rules: @below binds to the
  next line without a designation, @+N/@-N/@above relative); a hit is an error on that line.
"""
import argparse, json, os, re, subprocess, sys

CHECK_CODES = ("bounds.", "layout.overlap", "subbyte.", "race.")
FOLDERS = ["test/Dialect/CudaTile", "test/Bytecode", "test/Transforms"]
DESIG = re.compile(r"expected-(error|warning|note|remark)(-re)?\s*(@(above|below|unknown|[+-][0-9]+))?\s*\{\{")


def files(root):
    for folder in FOLDERS:
        for dirpath, _, names in os.walk(os.path.join(root, folder)):
            if "versioning" in dirpath.split(os.sep):
                continue
            for n in sorted(names):
                if n.endswith(".mlir") and not n.startswith("debuginfo_"):
                    yield os.path.join(dirpath, n)


def designated_error_lines(lines):
    out, pending = [], []
    for i, line in enumerate(lines):
        if "expected-" not in line:
            for k in pending:
                out[k] = i
            pending = []
            continue
        m = DESIG.search(line)
        if not m:
            continue
        kind, at = m.group(1), m.group(4) or ""
        target = i
        if at == "above":
            target = i - 1
        elif at and at not in ("below", "unknown"):
            target = i + int(at)
        if kind == "error":
            out.append(target)
            if at == "below":
                pending.append(len(out) - 1)
        elif at == "below":
            pending.append(None)  # keep binding semantics for following errors
            pending.pop()
    return out


def run(tilesight, path):
    p = subprocess.run([tilesight, "check", "--split-input-file", "--format=json", path],
                       capture_output=True, text=True, timeout=120)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{path}: exit {p.returncode}: {p.stderr[:500]}")
    return json.loads(p.stdout)["diagnostics"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--tilesight", default=os.path.join(os.path.dirname(__file__), "..", "build", "tilesight"))
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    valid_files = valid_errors = 0
    findings = []
    total = hits = 0
    misses = []
    for path in files(args.root):
        text = open(path, encoding="utf-8").read()
        lines = text.split("\n")
        runs = [l for l in lines if "RUN:" in l]
        expects_fail = any(re.search(r"RUN:\s*not\b", l) for l in runs)
        designated = designated_error_lines(lines)
        rel = os.path.relpath(path, args.root)
        if not runs:
            continue
        diags = run(args.tilesight, path)
        errors = [d for d in diags if d["severity"] == "error"]
        if not designated and not expects_fail:
            valid_files += 1
            valid_errors += len(errors)
            findings += [(rel, d) for d in diags if d["code"].startswith(CHECK_CODES)]
            if errors or args.verbose:
                print(f"valid {rel}: {len(errors)} errors")
                for d in errors[:20]:
                    print(f"    {d['line']}:{d['column']}: {d['message']}")
            continue
        if not designated:
            continue
        err_lines = {d["line"] for d in errors}
        file_hits = sum(1 for l in designated if l + 1 in err_lines)
        total += len(designated)
        hits += file_hits
        for l in designated:
            if l + 1 not in err_lines:
                misses.append((rel, l + 1, lines[l].strip()[:110]))
        print(f"invalid {rel}: {file_hits}/{len(designated)}")
    print()
    for rel, line, src in misses:
        print(f"MISS {rel}:{line}: {src}")
    print()
    print(f"valid files: {valid_files}, errors reported in them: {valid_errors}")
    print(f"dataflow-check diagnostics in the valid files: {len(findings)}")
    for rel, d in findings:
        print(f"    {rel}:{d['line']}:{d['column']}: {d['severity']}: {d['message']} [{d['code']}]")
        for n in d.get("notes", []):
            print(f"        note {n['line']}:{n['column']}: {n['message']}")
    pct = 100.0 * hits / total if total else 0.0
    print(f"designated error lines: {total}, with an error reported: {hits} ({pct:.1f}%)")


if __name__ == "__main__":
    sys.exit(main())

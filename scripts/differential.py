#!/usr/bin/env python3
"""Differential test: the static checks against the run-time sanitizer (issue 14).

usage: scripts/differential.py BINARY [DIR_OR_FILE ...] [--jobs N] [--only SUBSTRING] [--verbose]
                               [--markdown] [--memory-mib N] [--exceptions FILE]

For every chunk (`// -----` separates them) of every *.tile file of the given corpus
directories (default: tests/corpus/checks, checks_clean, real and real/bugs), it runs

  * `BINARY check --format=json OPTIONS CHUNK`, OPTIONS from the file's first line
    (`// tilesight-options: ...`), on the chunk alone, and
  * `BINARY run --sanitize --format=json ARGS CHUNK`, ARGS from the chunk's own line
    `// tilesight-run: --grid X,Y,Z --arg NAME=VALUE ...` (the launch the header states;
    its --grid and --arg values must agree with the options line), where besides the values
    `tilesight run` takes (zeros:, rand:, @FILE.npy, numbers) a buffer can be
    `--arg NAME=gen:SHAPE:DTYPE:EXPR`: the script writes a .npy whose element at flat index
    i is the Python expression EXPR (an index list: `gen:4:i32:[0,4,7,12][i]`; DTYPE i1, i8..i64,
    f16, f32, f64; an i1 buffer of all True: `gen:256:i1:1`),

with the chunk written to a temporary file after as many empty lines as precede it in its
file, so that both tools report the lines of the corpus file. A chunk marked
`// tilesight-run: skip REASON` is not run (and not compared); the reason is printed.

Compared codes (the sanitizer's): race.unordered, race.scope, layout.overlap, bounds.index,
subbyte.align, bounds.partial-tile. Each diagnostic is keyed by (code, line); race findings
name two accesses (the diagnostic's line and its note "the other access"), and a race
matches a race of the same code when either side's line is the other's line or its other
access: the static check reports a pair at the later op in program order, the sanitizer at
the access that finds the earlier one in its shadow memory, which for pairs across tile
blocks or loop iterations can be either op of the pair.

  * every static diagnostic of severity error must have a sanitizer finding that matches;
  * every sanitizer finding must have a static diagnostic (error or warning) that matches;
  * the run must not fault (run.fault), fail on its arguments (exit 2), die or time out.

Each mismatch not listed in the exceptions table (scripts/differential_exceptions.txt, one
`FILE#CHUNK | SIDE | CODE | LINE | REASON` per line; SIDE is `static` for an unconfirmed
static error, `sanitizer` for an unexplained finding, `run` for a run that failed) is a
failure, and so is an exception of a chunk that ran whose mismatch no longer occurs (stale).
Reasons starting with `BUG:` are known tool bugs. Prints the table of every chunk, the
totals, the runs over 5 s or 1 GiB; exits 1 on failure.
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import resource
import shlex
import struct
import subprocess
import sys
import tempfile
import threading
import time

COVERED = ("race.unordered", "race.scope", "layout.overlap", "bounds.index", "subbyte.align",
           "bounds.partial-tile")
RACES = ("race.unordered", "race.scope")
ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
DEFAULT_DIRS = [str(CORPUS / d) for d in ("checks", "checks_clean", "real", "real/bugs")]
SEPARATOR = re.compile(r"^// -----")
RUN_LINE = re.compile(r"^\s*//\s*tilesight-run:\s*(.*)$")
RUN_TIMEOUT_S = 240
SLOW_S = 5.0
BIG_MIB = 1024


def file_options(text):
    first = text.split("\n", 1)[0]
    if first.startswith("// tilesight-options:"):
        return shlex.split(first.split(":", 1)[1])
    return []


def chunks(path):
    """[(index from 1, first line from 1, lines)] of one file."""
    lines = path.read_text().split("\n")
    out, cur, start = [], [], 1
    for i, line in enumerate(lines):
        if SEPARATOR.match(line):
            out.append((len(out) + 1, start, cur))
            cur, start = [], i + 2
        else:
            cur.append(line)
    out.append((len(out) + 1, start, cur))
    return out


def run_spec(lines):
    """The chunk's run line: ('skip', reason), ('run', [args]) or (None, problem)."""
    found = [m.group(1).strip() for m in (RUN_LINE.match(l) for l in lines) if m]
    if not found:
        return None, "no `// tilesight-run:` line in the chunk"
    if len(found) > 1:
        return None, "more than one `// tilesight-run:` line in the chunk"
    spec = found[0]
    if spec == "skip" or spec.startswith("skip "):
        return "skip", spec[4:].strip() or "(no reason given)"
    return "run", shlex.split(spec)


NPY_DTYPES = {"i1": ("|b1", "?"), "i8": ("|i1", "b"), "i16": ("<i2", "h"), "i32": ("<i4", "i"), "i64": ("<i8", "q"),
              "f16": ("<f2", "e"), "f32": ("<f4", "f"), "f64": ("<f8", "d")}


def write_npy(path, shape, dtype, values):
    descr, fmt = NPY_DTYPES[dtype]
    dims = "(" + "".join(f"{d}," for d in shape) + ")"
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {dims}, }}"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def expand_args(args, tmp):
    """Replace `gen:SHAPE:DTYPE:EXPR` buffers by .npy files written into tmp."""
    out = []
    for a in args:
        m = re.match(r"^([^=]+)=gen:([0-9x]+):(\w+):(.*)$", a, re.S)
        if m:
            name, shape, dtype, expr = m.groups()
            dims = [int(d) for d in shape.split("x")]
            n = 1
            for d in dims:
                n *= d
            code = compile(expr, f"gen:{name}", "eval")
            values = [eval(code, {"__builtins__": {}, "min": min, "max": max, "abs": abs}, {"i": i})
                      for i in range(n)]
            if dtype.startswith("f"):
                values = [float(v) for v in values]
            elif dtype == "i1":
                values = [bool(v) for v in values]
            else:
                values = [int(v) for v in values]
            path = pathlib.Path(tmp) / f"arg_{len(out)}.npy"
            write_npy(path, dims, dtype, values)
            a = f"{name}=@{path}"
        out.append(a)
    return out


def partners(d):
    """Lines of the other access a race diagnostic names in its notes."""
    return frozenset(n["line"] for n in d.get("notes", [])
                     if n.get("message", "").startswith("the other access"))


def key(d):
    return (d["code"], d["line"], partners(d) if d["code"] in RACES else frozenset())


def matches(a, b):
    if a[0] != b[0]:
        return False
    if a[1] == b[1]:
        return True
    return a[0] in RACES and (a[1] in b[2] or b[1] in a[2])


def describe(k):
    code, line, other = k
    s = f"{code} at line {line}"
    if other:
        s += " (other access at line " + ", ".join(map(str, sorted(other))) + ")"
    return s


class Result:
    def __init__(self, name):
        self.name = name
        self.skip = None
        self.errors = []      # static errors (keys) of covered codes
        self.warnings = []    # static warnings (keys) of covered codes
        self.findings = []    # sanitizer findings (keys)
        self.matched_errors = 0
        self.matched_findings = 0
        self.mismatches = []  # (side, code, line, text)
        self.problems = []    # unconditional failures (annotation, tool crash)
        self.run_s = 0.0
        self.rss_mib = 0.0


def arg_values(args):
    """{NAME or POSITION: VALUE} of the `--arg K=V` / `--arg=K=V` options in a list of arguments."""
    out, i = {}, 0
    while i < len(args):
        a = args[i]
        if a == "--arg" and i + 1 < len(args):
            a, i = "--arg=" + args[i + 1], i + 1
        if a.startswith("--arg=") and "=" in a[6:]:
            k, v = a[6:].split("=", 1)
            out[k] = v
        i += 1
    return out


def contradicts(opts, spec):
    """The run line must launch what the check options state: the same --grid and --arg values."""
    checked, run = arg_values(opts), arg_values(spec)
    for k, v in checked.items():
        if k in run and run[k] != v:
            return f"the run line gives --arg {k}={run[k]}, the tilesight-options line {k}={v}"
    grids = [o.split("=", 1)[1] for o in opts if o.startswith("--grid=")]
    given = [spec[i + 1] for i, o in enumerate(spec[:-1]) if o == "--grid"] + \
            [o.split("=", 1)[1] for o in spec if o.startswith("--grid=")]
    norm = lambda g: tuple((g.split(",") + ["1", "1"])[:3])
    if grids and given and norm(grids[0]) != norm(given[0]):
        return f"the run line launches --grid {given[0]}, the tilesight-options line --grid={grids[0]}"
    return None


class Run:
    pass


def measured_run(cmd):
    """Run cmd; its exit status, output, peak resident memory (MiB) and whether it timed out."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = Run()
    out.timed_out = False
    def kill():
        out.timed_out = True
        p.kill()
    timer = threading.Timer(RUN_TIMEOUT_S, kill)
    timer.start()
    err = []
    reader = threading.Thread(target=lambda: err.append(p.stderr.read()))
    reader.start()
    stdout = p.stdout.read()
    reader.join()
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    p.returncode = out.returncode = os.waitstatus_to_exitcode(status)
    out.stdout = stdout.decode("utf-8", "replace")
    out.stderr = err[0].decode("utf-8", "replace")
    out.rss_mib = usage.ru_maxrss / 1024
    return out


def analyse(binary, path, rel, index, start, lines, opts):
    r = Result(f"{rel}#{index}")
    kind, spec = run_spec(lines)
    if kind is None:
        r.problems.append(spec)
        return r
    if kind == "skip":
        r.skip = spec
        return r
    problem = contradicts(opts, spec)
    if problem:
        r.problems.append(problem)
        return r
    return run_chunk(r, binary, path, start, lines, opts, spec)


def run_chunk(r, binary, path, start, lines, opts, spec):
    with tempfile.TemporaryDirectory(prefix="tilesight-diff-") as tmp:
        chunk = pathlib.Path(tmp) / path.name
        chunk.write_text("\n" * (start - 1) + "\n".join(lines) + "\n")
        check = subprocess.run([binary, "check", "--format=json"] + opts + [str(chunk)],
                               capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        if check.returncode not in (0, 1):
            r.problems.append(f"check exited {check.returncode}: {check.stderr.strip()[:300]}")
            return r
        static = json.loads(check.stdout)["diagnostics"]
        t0 = time.monotonic()
        run = measured_run([binary, "run", "--sanitize", "--format=json"] + expand_args(spec, tmp) + [str(chunk)])
        r.run_s = time.monotonic() - t0
        r.rss_mib = run.rss_mib
        if run.timed_out:
            r.mismatches.append(("run", "timeout", 0, f"the run took more than {RUN_TIMEOUT_S} s"))
            return r
    for d in static:
        if d["code"] in ("syntax", "type"):
            r.problems.append(f"static {d['code']} at line {d['line']}: {d['message'][:200]}")
        if d["code"] not in COVERED:
            continue
        k = key(d)
        if d["severity"] == "error" and k not in r.errors:
            r.errors.append(k)
        elif d["severity"] == "warning" and k not in r.warnings:
            r.warnings.append(k)
    if run.returncode not in (0, 1):
        what = f"exit{run.returncode}" if run.returncode >= 0 else f"signal{-run.returncode}"
        r.mismatches.append(("run", what, 0, f"run exited with {what}: {run.stderr.strip()[:300]}"))
        return r
    try:
        dynamic = json.loads(run.stdout)["diagnostics"]
    except (ValueError, KeyError):
        r.problems.append(f"run exited {run.returncode} without JSON: {run.stderr.strip()[:300]}")
        return r
    for d in dynamic:
        if d["code"] not in COVERED:
            r.mismatches.append(("run", d["code"], d.get("line", 0), d["message"][:300]))
            continue
        k = key(d)
        if k not in r.findings:
            r.findings.append(k)
    for e in r.errors:
        if any(matches(e, f) for f in r.findings):
            r.matched_errors += 1
        else:
            r.mismatches.append(("static", e[0], e[1], "static error not confirmed: " + describe(e)))
    for f in r.findings:
        if any(matches(f, s) for s in r.errors + r.warnings):
            r.matched_findings += 1
        else:
            r.mismatches.append(("sanitizer", f[0], f[1], "no static diagnostic for " + describe(f)))
    return r


def print_markdown(results, exceptions, used):
    """One row per file: chunks run / skipped and the sums over its chunks."""
    files = {}
    for r in results:
        f = files.setdefault(r.name.rsplit("#", 1)[0], dict(run=0, skip=0, err=0, merr=0, warn=0, san=0, msan=0,
                                                             exc=0, bug=0, slow=0.0))
        if r.skip is not None:
            f["skip"] += 1
            continue
        f["run"] += 1
        for k, v in (("err", len(r.errors)), ("merr", r.matched_errors), ("warn", len(r.warnings)),
                     ("san", len(r.findings)), ("msan", r.matched_findings)):
            f[k] += v
        f["slow"] = max(f["slow"], r.run_s)
        for side, code, line, _ in r.mismatches:
            k = (r.name, side, code, line)
            if k in used:
                f["exc"] += 1
                f["bug"] += exceptions[k][0].startswith("BUG:")
    print("| file | chunks run | skipped | static errors | confirmed | static warnings | sanitizer findings "
          "| explained | exceptions (BUG) |")
    print("|---|---|---|---|---|---|---|---|---|")
    tot = dict.fromkeys(("run", "skip", "err", "merr", "warn", "san", "msan", "exc", "bug"), 0)
    for name, f in files.items():
        for k in tot:
            tot[k] += f[k]
        exc = f"{f['exc']} ({f['bug']})" if f["bug"] else str(f["exc"])
        print(f"| `{name}` | {f['run']} | {f['skip']} | {f['err']} | {f['merr']} | {f['warn']} | {f['san']} "
              f"| {f['msan']} | {exc} |")
    print(f"| **total** | {tot['run']} | {tot['skip']} | {tot['err']} | {tot['merr']} | {tot['warn']} | {tot['san']} "
          f"| {tot['msan']} | {tot['exc']} ({tot['bug']}) |")
    print()


def load_exceptions(path):
    """{(chunk, side, code, line): (reason, line of the table)}"""
    table = {}
    if not path.exists():
        return table
    for n, raw in enumerate(path.read_text().split("\n"), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|", 4)]
        if len(parts) != 5 or not parts[4]:
            sys.exit(f"{path}:{n}: expected `FILE#CHUNK | SIDE | CODE | LINE | REASON`")
        chunk, side, code, lno, reason = parts
        k = (chunk, side, code, int(lno))
        if k in table:
            sys.exit(f"{path}:{n}: duplicate exception {chunk} {side} {code} {lno}")
        table[k] = (reason, n)
    return table


def collect(targets):
    files = []
    for t in targets:
        p = pathlib.Path(t)
        if not p.exists():
            p = CORPUS / t
        if p.is_dir():
            files += sorted(p.glob("*.tile"))
        elif p.is_file():
            files.append(p)
        else:
            sys.exit(f"no such corpus directory or file: {t}")
    return files


def rel_name(path):
    try:
        return str(path.resolve().relative_to(CORPUS))
    except ValueError:
        return str(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("targets", nargs="*", default=DEFAULT_DIRS)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", help="only chunks whose FILE#CHUNK name contains this")
    ap.add_argument("--exceptions", default=str(pathlib.Path(__file__).resolve().parent / "differential_exceptions.txt"))
    ap.add_argument("--verbose", action="store_true", help="list every static and dynamic key")
    ap.add_argument("--markdown", action="store_true",
                    help="first print the results per file as a Markdown table (docs/differential.md)")
    ap.add_argument("--memory-mib", type=int, default=0,
                    help="address-space limit of each run in MiB (0: none; AddressSanitizer builds need none)")
    a = ap.parse_args()
    exceptions = load_exceptions(pathlib.Path(a.exceptions))
    if a.memory_mib:  # inherited by every tilesight process (this one stays far below it)
        resource.setrlimit(resource.RLIMIT_AS, (a.memory_mib << 20, a.memory_mib << 20))
    work = []
    for path in collect(a.targets):
        opts = file_options(path.read_text())
        for index, start, lines in chunks(path):
            name = f"{rel_name(path)}#{index}"
            if a.only and a.only not in name:
                continue
            work.append((path, rel_name(path), index, start, lines, opts))
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        results = list(pool.map(lambda w: analyse(a.binary, *w), work))
    wall = time.monotonic() - t0

    used, failures, bugs = set(), [], []
    rows = []
    tot = dict(chunks=0, run=0, skip=0, err=0, warn=0, san=0, merr=0, msan=0, exc=0, fail=0)
    for r in results:
        tot["chunks"] += 1
        if r.skip is not None:
            tot["skip"] += 1
            rows.append((r.name, "-", "-", "-", "-", "-", "-", "skip: " + r.skip))
            continue
        tot["run"] += 1
        excused, bad = 0, []
        for side, code, line, text in r.mismatches:
            k = (r.name, side, code, line)
            if k in exceptions:
                used.add(k)
                excused += 1
                if exceptions[k][0].startswith("BUG:"):
                    bugs.append(f"{r.name}: {text} -- {exceptions[k][0]}")
            else:
                bad.append(f"{r.name}: [{side}] {text} (exception key: {r.name} | {side} | {code} | {line})")
        bad += [f"{r.name}: {p}" for p in r.problems]
        failures += bad
        for n, v in (("err", len(r.errors)), ("warn", len(r.warnings)), ("san", len(r.findings)),
                     ("merr", r.matched_errors), ("msan", r.matched_findings), ("exc", excused)):
            tot[n] += v
        tot["fail"] += 1 if bad else 0
        status = "FAIL" if bad else ("ok" if not excused else "ok (exceptions)")
        rows.append((r.name, len(r.errors), len(r.warnings), len(r.findings),
                     f"{r.matched_errors}/{len(r.errors)}", f"{r.matched_findings}/{len(r.findings)}",
                     excused, status + (f"  [{r.run_s:.1f} s]" if r.run_s > SLOW_S else "")))
        if a.verbose:
            for e in r.errors:
                rows.append(("", "", "", "", "", "", "", "  static error: " + describe(e)))
            for e in r.warnings:
                rows.append(("", "", "", "", "", "", "", "  static warning: " + describe(e)))
            for f in r.findings:
                rows.append(("", "", "", "", "", "", "", "  sanitizer: " + describe(f)))
    for k, (reason, n) in sorted(exceptions.items(), key=lambda kv: kv[1][1]):
        in_scope = any(r.name == k[0] and r.skip is None for r in results)
        if in_scope and k not in used:
            failures.append(f"stale exception ({a.exceptions}:{n}): {' | '.join(map(str, k))}: "
                            "this mismatch no longer occurs; remove the entry")

    if a.markdown:
        print_markdown(results, exceptions, used)
    head = ("chunk", "static err", "static warn", "sanitizer", "err confirmed", "finding explained",
            "exceptions", "result")
    widths = [max(len(str(x[i])) for x in rows + [head]) for i in range(7)]
    print("  ".join(str(h).ljust(w) for h, w in zip(head, widths)) + "  " + head[7])
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)) + "  " + str(row[7]))
    print()
    print(f"chunks: {tot['chunks']} ({tot['run']} run, {tot['skip']} skipped); static errors {tot['err']}, "
          f"confirmed {tot['merr']}; static warnings {tot['warn']}; sanitizer findings {tot['san']}, "
          f"explained by a static diagnostic {tot['msan']}; excepted mismatches {tot['exc']} "
          f"({len(bugs)} known tool bugs); failing chunks {tot['fail']}; {wall:.1f} s")
    slow = sorted((r for r in results if r.run_s > SLOW_S), key=lambda r: -r.run_s)
    if slow:
        print("runs over %.0f s: " % SLOW_S + ", ".join(f"{r.name} {r.run_s:.1f} s" for r in slow))
    big = sorted((r for r in results if r.rss_mib > BIG_MIB), key=lambda r: -r.rss_mib)
    if big:
        print("runs over %d MiB of memory: " % BIG_MIB + ", ".join(f"{r.name} {r.rss_mib:.0f} MiB" for r in big))
    if bugs:
        print("\nknown tool bugs (BUG: exceptions):")
        for b in bugs:
            print("  " + b)
    if failures:
        print("\nFAILURES:")
        for f in failures:
            print("  " + f)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Soundness harness of the value facts (issue 36): every corpus run under `tilesight run --check-facts`.

usage: scripts/soundness_harness.py BINARY [--jobs N] [--fuzz N] [--seed S] [--versions 13_4] [--only SUBSTRING]

`run --check-facts` computes the value facts of the checks (analysis/checks/value_facts.h) for the
run's launch and checks, at every op the interpreter runs, that each integer and pointer value lies
inside them (codegen/interp/fact_checker.h). This script runs it over

  * every chunk of the text corpora the differential test runs (tests/corpus/checks, checks_clean,
    real, real/bugs), with the launch of the chunk's `// tilesight-run:` line (scripts/differential.py);
  * every kernel of the cuTile bytecode corpus (tests/corpus/cutile/kernels) at the given versions,
    with its launch file and --inputs=random;
  * the fuzzed programs: N mutants (--fuzz, deterministic with --seed) of the runnable text chunks,
    each with one integer changed (a `constant <iN: K>` of the program, or an integer --arg of its
    launch) to a value drawn near it, so the facts meet other values than the corpus's. A mutant
    that no longer verifies or launches is counted as not run.

Text programs without a launch (tests/corpus/valid, examples, tests/corpus/invalid: no run line)
are skipped, and counted. A run that stops at a fault (a seeded bug) counts the facts checked until
then; so does a run that breaks an `assume` (the facts rest on it: undefined behaviour). Prints the facts checked by kind and every violation (file#chunk, the op and its line:col,
the value and the fact); exits 1 on a violation, on a run that dies, times out or cannot start,
0 otherwise.
"""
import argparse
import concurrent.futures
import pathlib
import random
import re
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import differential  # noqa: E402  (chunks, run lines, gen: buffers)

ROOT = differential.ROOT
KERNELS = ROOT / "tests" / "corpus" / "cutile" / "kernels"
UNLAUNCHED = [ROOT / "tests" / "corpus" / "valid", ROOT / "tests" / "corpus" / "invalid", ROOT / "examples"]
SUMMARY = re.compile(r"^facts checked: (\d+) \(interval (\d+), divisor (\d+), affine (\d+), strides (\d+)\), "
                     r"violations: (\d+)$", re.M)
CONSTANT = re.compile(r"constant <i(8|16|32|64): (-?\d+)>")
INT_ARG = re.compile(r"^([^=]+)=(-?\d+)$")
KINDS = ("interval", "divisor", "affine", "strides")


class Outcome:
    def __init__(self, name):
        self.name = name
        self.counts = [0, 0, 0, 0]
        self.violations = []  # messages
        self.problem = None   # the run did not end as a run ends
        self.fault = False    # exit 1: a seeded bug stopped it, or findings
        self.false_assume = None  # the assume whose predicate the run broke (checking stopped there)


def run_checked(binary, name, args, path):
    o = Outcome(name)
    run = differential.measured_run([binary, "run", "--device", "cpu", "--check-facts"] + args + [str(path)])
    m = SUMMARY.search(run.stderr)
    if run.timed_out:
        o.problem = f"timed out after {differential.RUN_TIMEOUT_S} s"
    elif not m or run.returncode not in (0, 1, 4):
        o.problem = f"exit {run.returncode}: {run.stderr.strip()[-300:]}"
    if m:
        o.counts = [int(g) for g in m.groups()[1:5]]
    o.violations = [line[len("fact violated: "):] for line in run.stderr.splitlines()
                    if line.startswith("fact violated: ")]
    if run.returncode == 4 and not o.violations:
        o.violations = ["(a violation without its message)"]
    o.fault = run.returncode == 1
    stopped = re.search(r"^facts: checking stopped at (.*), whose", run.stderr, re.M)
    o.false_assume = stopped.group(1) if stopped else None
    return o


def text_job(binary, name, file_name, start, lines, spec):
    with tempfile.TemporaryDirectory(prefix="tilesight-facts-") as tmp:
        chunk = pathlib.Path(tmp) / file_name
        chunk.write_text("\n" * (start - 1) + "\n".join(lines) + "\n")
        return run_checked(binary, name, differential.expand_args(spec, tmp), chunk)


def text_chunks(only):
    """(name, file name, first line, lines, run args) of every runnable chunk, and {reason: count} skipped."""
    runnable, skipped = [], {}
    for d in differential.DEFAULT_DIRS:
        for path in sorted(pathlib.Path(d).glob("*.tile")):
            rel = path.relative_to(differential.CORPUS)
            for index, start, lines in differential.chunks(path):
                name = f"{rel}#{index}"
                if only and only not in name:
                    continue
                kind, spec = differential.run_spec(lines)
                if kind != "run":
                    reason = "its run line says skip" if kind == "skip" else "no run line"
                    skipped[reason] = skipped.get(reason, 0) + 1
                    continue
                runnable.append((name, path.name, start, lines, spec))
    for d in UNLAUNCHED:
        for path in sorted(d.glob("*.tile")):
            if not only or only in str(path):
                reason = "a program without a launch (no run line: tests/corpus/valid, invalid, examples)"
                skipped[reason] = skipped.get(reason, 0) + 1
    return runnable, skipped


def mutant(rng, chunk):
    """The chunk with one integer changed (a constant of the program or an integer --arg), or None."""
    name, file_name, start, lines, spec = chunk
    sites = [("arg", i) for i, a in enumerate(spec) if INT_ARG.match(a)]
    sites += [("constant", i) for i, line in enumerate(lines) if CONSTANT.search(line)]
    if not sites:
        return None
    where, i = rng.choice(sites)
    lines, spec = list(lines), list(spec)
    if where == "arg":
        key, value = INT_ARG.match(spec[i]).groups()
        new = max(0, int(value) + rng.choice([-3, -2, -1, 1, 2, 3]))
        spec[i] = f"{key}={new}"
        what = f"--arg {key}={new}"
    else:
        m = CONSTANT.search(lines[i])
        bits, value = int(m.group(1)), int(m.group(2))
        new = value + rng.choice([-2, -1, 1, 2])
        new = max(-(1 << (bits - 1)), min((1 << (bits - 1)) - 1, new))
        lines[i] = lines[i][:m.start()] + f"constant <i{bits}: {new}>" + lines[i][m.end():]
        what = f"line {start + i}: constant {value} -> {new}"
    return (f"{name} [{what}]", file_name, start, lines, spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--fuzz", type=int, default=100, help="mutants of the text chunks (0: none)")
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--versions", default="13_4", help="bytecode versions of the cuTile corpus, comma-separated")
    ap.add_argument("--only", default="", help="only the programs whose name contains this")
    a = ap.parse_args()

    runnable, skipped = text_chunks(a.only)
    rng = random.Random(a.seed)
    mutants = []
    for _ in range(a.fuzz if runnable else 0):
        m = mutant(rng, rng.choice(runnable))
        if m:
            mutants.append(m)
    kernels = []
    for launch in sorted(KERNELS.glob("*.launch.json")):
        stem = launch.name[: -len(".launch.json")]
        for v in a.versions.split(","):
            bc = KERNELS / f"{stem}.{v}.tilebc"
            if bc.exists() and (not a.only or a.only in bc.name):
                kernels.append(bc)

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        text = [pool.submit(text_job, a.binary, *c) for c in runnable]
        fuzz = [pool.submit(text_job, a.binary, *c) for c in mutants]
        cutile = [pool.submit(run_checked, a.binary, f"cutile/kernels/{bc.name}", ["--inputs=random"], bc)
                  for bc in kernels]
        groups = [("text corpora", [f.result() for f in text]), ("cuTile bytecode", [f.result() for f in cutile]),
                  ("fuzzed (mutants)", [f.result() for f in fuzz])]

    failed = False
    totals = [0, 0, 0, 0]
    for title, outcomes in groups:
        counts = [sum(o.counts[k] for o in outcomes) for k in range(4)]
        totals = [t + c for t, c in zip(totals, counts)]
        # A mutant that no longer verifies or launches is no failure: it did not run.
        fuzzed = title.startswith("fuzzed")
        ran = [o for o in outcomes if not (fuzzed and o.problem)]
        print(f"{title}: {len(ran)} programs run ({sum(o.fault for o in ran)} stopped by a fault or with findings"
              f"{'' if not fuzzed else f', {len(outcomes) - len(ran)} mutants not run'}), facts checked "
              f"{sum(counts)} (" + ", ".join(f"{k} {c}" for k, c in zip(KINDS, counts)) + ")")
        for o in outcomes:
            for v in o.violations:
                print(f"  VIOLATION {o.name}: {v}")
                failed = True
            if o.false_assume:
                print(f"  note {o.name}: checking stopped at {o.false_assume}, whose predicate the launch breaks")
            if o.problem and not fuzzed:
                print(f"  FAILED {o.name}: {o.problem}")
                failed = True
    for reason, n in sorted(skipped.items()):
        print(f"skipped {n}: {reason}")
    violations = sum(len(o.violations) for _, outcomes in groups for o in outcomes)
    print(f"total: facts checked {sum(totals)} (" + ", ".join(f"{k} {c}" for k, c in zip(KINDS, totals)) +
          f"), violations: {violations}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

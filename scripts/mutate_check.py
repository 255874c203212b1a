#!/usr/bin/env python3
"""Mutation test of `tilesight check` (issue 12, acceptance 2).

Mutates tile programs (byte flips, truncations, line deletions and
duplications, splices of two files, bytes that are not UTF-8, lone \\r) and
runs `tilesight check --format=json` and `--format=sarif` on each mutant
under a time and memory limit. Fails on any crash (a signal), a timeout, an
exit status other than 0 or 1, or output that is not valid UTF-8 JSON; the
mutant is saved (--keep DIR) for reproduction.

usage: scripts/mutate_check.py [--count 2000] [--seed 1] [--jobs 2] [--memory-mib 2048]
                               [--tilesight build/tilesight] [--corpus DIR]... [--keep DIR]
By default the corpus is the repository's own programs (tests/, examples/);
add NVIDIA's lit tests with --corpus /path/to/cuda-tile/test.
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import random
import resource
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
TIMEOUT_S = 10
NASTY = [b"\xff", b"\xfe", b"\xc3", b"\x00", b"\r", b"\r\n", b"\"", b"{", b"}", b"<", b">", b"[", b"]",
         b"%", b"#", b"@", b"^", b"-", b"9223372036854775808", b"// -----\n", b"\xe2\x82", b"\t"]


def corpus(dirs):
    files = []
    for d in dirs:
        for p in sorted(pathlib.Path(d).rglob("*")):
            if p.suffix in (".tile", ".mlir") and p.is_file():
                files.append(p.read_bytes())
    return files


def mutate(rng, files):
    text = bytearray(rng.choice(files))
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(7)
        lines = text.split(b"\n")
        if kind == 0 and text:  # byte flip
            text[rng.randrange(len(text))] = rng.randrange(256)
        elif kind == 1 and text:  # truncation
            del text[rng.randrange(len(text)):]
        elif kind == 2 and len(lines) > 1:  # line deletion
            del lines[rng.randrange(len(lines))]
            text = bytearray(b"\n".join(lines))
        elif kind == 3 and lines:  # line duplication
            i = rng.randrange(len(lines))
            lines[i:i] = [lines[i]] * rng.randint(1, 3)
            text = bytearray(b"\n".join(lines))
        elif kind == 4:  # splice: our head, another file's tail
            other = rng.choice(files)
            text = text[:rng.randint(0, len(text))] + other[rng.randint(0, len(other)):]
        elif kind == 5:  # a nasty token somewhere
            i = rng.randint(0, len(text))
            text[i:i] = rng.choice(NASTY)
        else:  # a range of bytes removed
            if text:
                i = rng.randrange(len(text))
                del text[i:i + rng.randint(1, 64)]
    return bytes(text)


def check_one(tilesight, path, fmt, extra):
    """None if all is well, else why."""
    cmd = [tilesight, "check", "--format=" + fmt] + extra + [path]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return f"timeout ({TIMEOUT_S} s): {' '.join(cmd)}"
    if p.returncode < 0:
        return f"signal {-p.returncode}: {' '.join(cmd)}"
    if p.returncode not in (0, 1):
        return f"exit {p.returncode}: {' '.join(cmd)}: {p.stderr[-300:]!r}"
    try:
        json.loads(p.stdout.decode("utf-8", errors="strict"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        return f"invalid output ({e}): {' '.join(cmd)}"
    return None


def run_mutant(args):
    tilesight, workdir, index, text, extra = args
    path = os.path.join(workdir, f"mutant{index}.tile")
    with open(path, "wb") as f:
        f.write(text)
    problems = [why for fmt in ("json", "sarif") if (why := check_one(tilesight, path, fmt, extra))]
    if not problems:
        os.unlink(path)
    return index, problems


def options(rng):
    extra = []
    if rng.random() < 0.5:
        extra.append("--split-input-file")
    if rng.random() < 0.2:
        extra.append("--verify-diagnostics")
    if rng.random() < 0.3:
        extra.append("--grid=%d,%d,%d" % tuple(rng.choice([1, 2, 3, 8, 4096, 16777215]) for _ in range(3)))
    if rng.random() < 0.1:
        extra.append("--assume-aliasing")
    return extra


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--tilesight", default=str(ROOT / "build/tilesight"))
    ap.add_argument("--corpus", action="append", default=[])
    ap.add_argument("--memory-mib", type=int, default=2048, help="address-space limit per run (0: none)")
    ap.add_argument("--keep", default=None, help="folder for failing mutants (default: a new temporary one)")
    a = ap.parse_args()
    files = corpus([ROOT / "tests", ROOT / "examples"] + a.corpus)
    if not files:
        sys.exit("no corpus files")
    keep = a.keep or os.path.join("/tmp", f"tilesight-mutants-{os.getpid()}")
    os.makedirs(keep, exist_ok=True)
    if a.memory_mib:
        # The runs inherit the limit (set here, not in a preexec_fn, which
        # would make every run a full fork of this process).
        resource.setrlimit(resource.RLIMIT_AS, (a.memory_mib << 20, a.memory_mib << 20))
    rng = random.Random(a.seed)
    start, failures, done = time.time(), [], 0
    # Mutants are made as runs finish, a few per worker ahead, so that this
    # process stays small.
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        pending = set()
        for i in range(a.count + 1):
            if i < a.count:
                pending.add(pool.submit(run_mutant, (a.tilesight, keep, i, mutate(rng, files), options(rng))))
            if len(pending) >= 4 * a.jobs or i == a.count:
                finished, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.ALL_COMPLETED if i == a.count
                    else concurrent.futures.FIRST_COMPLETED)
                for f in finished:
                    index, problems = f.result()
                    done += 1
                    failures += [f"mutant{index}.tile: {p}" for p in problems]
    print(f"{done} mutants of {len(files)} corpus files (seed {a.seed}), {2 * done} runs "
          f"(json and sarif) in {time.time() - start:.0f} s: {len(failures)} failures")
    for f in failures[:30]:
        print("  " + f)
    if failures:
        print(f"failing mutants are in {keep}")
        return 1
    if not a.keep:
        os.rmdir(keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())

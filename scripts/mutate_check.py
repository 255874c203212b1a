#!/usr/bin/env python3
"""Mutation test of `tilesight check` (issue 12, acceptance 2).

Mutates tile programs (byte flips, truncations, line deletions and
duplications, splices of two files, bytes that are not UTF-8, lone \\r) and
bytecode files (byte flips, truncations, splices, varint-boundary edits:
continuation bits, overlong and 65-bit varints; section length edits) and
runs `tilesight check --format=json` and `--format=sarif` on each mutant
under a time and memory limit. Fails on any crash (a signal), a timeout, an
exit status other than 0 or 1, or output that is not valid UTF-8 JSON; the
mutant is saved (--keep DIR) for reproduction.

usage: scripts/mutate_check.py [--count 2000] [--seed 1] [--jobs 2] [--memory-mib 2048]
                               [--tilesight build/tilesight] [--corpus DIR]... [--keep DIR]
                               [--inputs text|bytecode|both]
By default the corpus is the repository's own programs (tests/, examples/:
.tile and .mlir text, .tilebc bytecode such as tests/corpus/cutile); add
NVIDIA's lit tests with --corpus /path/to/cuda-tile/test.
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
MAGIC = b"\x7fTileIR\x00"
TIMEOUT_S = 10
NASTY = [b"\xff", b"\xfe", b"\xc3", b"\x00", b"\r", b"\r\n", b"\"", b"{", b"}", b"<", b">", b"[", b"]",
         b"%", b"#", b"@", b"^", b"-", b"9223372036854775808", b"// -----\n", b"\xe2\x82", b"\t"]


def corpus(dirs, suffixes):
    files = []
    for d in dirs:
        for p in sorted(pathlib.Path(d).rglob("*")):
            if p.suffix in suffixes and p.is_file():
                files.append(p.read_bytes())
    return files


def varint(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def read_varint(data, i):
    """(value, next index), or (None, i) when the data ends first."""
    v, shift = 0, 0
    while i < len(data):
        b = data[i]
        v |= (b & 0x7F) << shift
        i, shift = i + 1, shift + 7
        if not b & 0x80:
            return v, i
    return None, i


def section_lengths(data):
    """(offset, size) of each section's length varint (bytecode_format.md §1)."""
    out, i = [], 12
    while i < len(data) and data[i] & 0x7F:
        head, start = data[i], i + 1
        length, i = read_varint(data, start)
        if length is None:
            break
        out.append((start, i - start))
        if head & 0x80:
            align, i = read_varint(data, i)
            if not align:
                break
            i += -i % align
        i += length
    return out


def mutate_bytecode(rng, files):
    data = bytearray(rng.choice(files))
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        if kind == 0 and data:  # byte flip
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif kind == 1 and data:  # truncation
            del data[rng.randrange(len(data)):]
        elif kind == 2:  # splice: our head, another file's tail
            other = rng.choice(files)
            data = data[:rng.randint(0, len(data))] + other[rng.randint(0, len(other)):]
        elif kind == 3 and data:  # varint boundaries: a continuation bit, an overlong or wide varint
            i = rng.randrange(len(data))
            edit = rng.randrange(4)
            if edit == 0:
                data[i] ^= 0x80
            elif edit == 1:
                data[i:i] = b"\x80" * rng.randint(1, 10)
            elif edit == 2:
                data[i:i + 1] = b"\xff" * 9 + bytes([rng.choice([1, 2, 3, 0x7F])])
            else:
                data[i] = rng.choice([0x7F, 0x80, 0xFF, 0x00])
        elif kind == 4 and (sections := section_lengths(data)):  # a section length
            at, size = rng.choice(sections)
            old, _ = read_varint(data, at)
            new = rng.choice([0, 1, old - 1, old + 1, old * 2, 2 ** 32, 2 ** 63, rng.randrange(2 ** 20)])
            data[at:at + size] = varint(max(new, 0))
        elif kind == 5 and data:  # a range of bytes removed or repeated
            i = rng.randrange(len(data))
            chunk = data[i:i + rng.randint(1, 64)]
            data[i:i + len(chunk)] = chunk * rng.randint(0, 3)
    return bytes(data)


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
    path = os.path.join(workdir, f"mutant{index}.tilebc" if text.startswith(MAGIC) else f"mutant{index}.tile")
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
    ap.add_argument("--inputs", choices=("text", "bytecode", "both"), default="both",
                    help="which corpus files to mutate (bytecode: .tilebc)")
    a = ap.parse_args()
    dirs = [ROOT / "tests", ROOT / "examples"] + a.corpus
    texts = corpus(dirs, (".tile", ".mlir")) if a.inputs != "bytecode" else []
    codes = corpus(dirs, (".tilebc",)) if a.inputs != "text" else []
    if not texts and not codes:
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
                code = bool(codes) and (not texts or rng.random() < len(codes) / (len(codes) + len(texts)))
                mutant = mutate_bytecode(rng, codes) if code else mutate(rng, texts)
                pending.add(pool.submit(run_mutant, (a.tilesight, keep, i, mutant, options(rng))))
            if len(pending) >= 4 * a.jobs or i == a.count:
                finished, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.ALL_COMPLETED if i == a.count
                    else concurrent.futures.FIRST_COMPLETED)
                for f in finished:
                    index, problems = f.result()
                    done += 1
                    failures += [f"mutant{index}: {p}" for p in problems]
    print(f"{done} mutants of {len(texts)} text and {len(codes)} bytecode corpus files (seed {a.seed}), {2 * done} runs "
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

#!/usr/bin/env python3
"""Does `tilesight check` take time linear in its input? (issue 12, acceptance 3)

For each shape of input (many entries, many ops of GEMM-like kernels, one long
entry, many type errors) it times `tilesight check` on N and 10 N, and prints
the CPU time (user + system, min of RUNS runs), the peak resident memory and
the ratio. Linear is 10x; the target is at most 12x. Then one file of about
BIG ops of GEMM-like kernels: its time and peak memory.

usage: scripts/bench_scaling.py [--tilesight build/tilesight] [--gen build/bench/tilesight_bench_gen]
                                [--small 8000] [--runs 3] [--big 1000000]
       scripts/bench_scaling.py --check   (the ctest: 2,000 vs 20,000, fails above 20x,
                                           which any quadratic path exceeds by far)
"""
import argparse
import os
import subprocess
import sys
import tempfile

SHAPES = [("entries", "small entries"), ("kernels", "ops of GEMM-like kernels"),
          ("custom", "ops in one entry"), ("errors", "type errors")]


def measure(tilesight, path, runs):
    """(min CPU seconds, max peak RSS in MiB) of `tilesight check path`."""
    best, rss = float("inf"), 0.0
    for _ in range(runs):
        with open(os.devnull, "wb") as null:
            proc = subprocess.Popen([tilesight, "check", path], stdout=null, stderr=null)
            _, status, usage = os.wait4(proc.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            sys.exit(f"tilesight check {path} exited with {code}")
        best = min(best, usage.ru_utime + usage.ru_stime)
        rss = max(rss, usage.ru_maxrss / 1024)
    return best, rss


def generate(gen, n, form, tmp):
    path = os.path.join(tmp, f"{form}_{n}.tile")
    with open(path, "wb") as out:
        subprocess.run([gen, str(n), form], stdout=out, check=True)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tilesight", default="build/tilesight")
    ap.add_argument("--gen", default="build/bench/tilesight_bench_gen")
    ap.add_argument("--small", type=int, default=8000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--big", type=int, default=1000000)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    if a.check:
        a.small, a.big, limit = 2000, 0, 20.0
    else:
        limit = None
    failed = []
    with tempfile.TemporaryDirectory(prefix="tilesight-scaling-") as tmp:
        print(f"{'input':<28} {'N':>9} {'CPU s':>8} {'RSS MiB':>8} {'10N':>9} {'CPU s':>8} {'RSS MiB':>8} {'ratio':>6}")
        for form, what in SHAPES:
            n = a.small
            t1, m1 = measure(a.tilesight, generate(a.gen, n, form, tmp), a.runs)
            t2, m2 = measure(a.tilesight, generate(a.gen, 10 * n, form, tmp), a.runs)
            # The process's own start costs a few milliseconds; a floor keeps the
            # ratio meaningful when N is small.
            ratio = t2 / max(t1, 0.005)
            print(f"{what:<28} {n:>9} {t1:>8.3f} {m1:>8.1f} {10 * n:>9} {t2:>8.3f} {m2:>8.1f} {ratio:>5.1f}x")
            if limit and ratio > limit:
                failed.append(f"{what}: 10x the input took {ratio:.1f}x the time")
        if a.big:
            path = generate(a.gen, a.big, "kernels", tmp)
            t, m = measure(a.tilesight, path, 1)
            size = os.path.getsize(path) / 2**20
            print(f"\n{a.big} ops of GEMM-like kernels ({size:.0f} MiB of text): {t:.2f} s CPU, "
                  f"peak RSS {m:.0f} MiB ({m * 2**20 / a.big:.0f} bytes per op)")
    if failed:
        print("FAIL: not linear:\n  " + "\n  ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

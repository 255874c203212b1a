#!/usr/bin/env python3
"""GPU benchmark of the SIMT lowering (issue 15): real cuTile kernels of the corpus, run by
`tilesight run --device D --repeat R`, side by side with their peers in one run:

  vector_add   tests/corpus/real/vec_add.tile (n elements)     vs torch.add            (GB/s)
  softmax      tests/corpus/real/softmax.tile (rows x 128)     vs torch.softmax        (GB/s)
  layer_norm   tests/corpus/real/layer_norm_fwd.tile (M x 1536) vs F.layer_norm        (GB/s)
  gemm_f16     tests/corpus/real/matmul_dyn.tile (4096^3, f16) vs torch.matmul (cuBLAS) and a
               blocked Triton matmul written here the way Triton's tutorial writes one (TFLOP/s)

The corpus kernels with static shapes (vec_add, layer_norm_fwd) are resized by rewriting their
shape literals into a temporary copy; tilesight checks each copy before it runs. Before timing,
every case runs once at a small size with --check (the device's result against the CPU
reference). tilesight's times are the kernel's own (device events on CUDA/HIP, enqueue to finish
on OpenCL); the peers' are CUDA events around the same operation, median of --repeat runs.

A peer that is not installed (no torch, no triton, no CUDA device for torch) is reported as such.
`--scale small` runs every case at a size a CPU OpenCL device handles (the CI smoke test:
ctest bench.gpu_smoke); `--scale full` is the issue's sizes, for a GPU.

`--run-flag=FLAG` passes FLAG to every `run` (`--run-flag=--no-guard`: the cost of the access
guard, docs/codegen.md).

Usage: gpu_bench.py TILESIGHT [--device cuda:0] [--scale full|small] [--repeat 20] [--run-flag=FLAG]... [--markdown]
"""
import argparse
import json
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
REAL = ROOT / "tests/corpus/real"

SIZES = {
    "full": {"vector_add": 1 << 26, "softmax": 1 << 17, "layer_norm": 16384, "gemm_f16": 4096},
    "small": {"vector_add": 1 << 16, "softmax": 1 << 9, "layer_norm": 64, "gemm_f16": 256},
}
CHECK = {"vector_add": 1 << 12, "softmax": 64, "layer_norm": 16, "gemm_f16": 256}


def vector_add(n):
    text = (REAL / "vec_add.tile").read_text().replace("1000000", str(n))
    grid = (n + 1023) // 1024
    args = [f"--arg {x}=rand:{n}:f32:{s} --arg {x}_s0={n} --arg {x}_st0=1" for x, s in (("a", 1), ("b", 2), ("c", 3))]
    return text, grid, " ".join(args), 3 * 4 * n, "bytes"


def softmax(rows):
    text = (REAL / "softmax.tile").read_text()
    grid = (rows + 15) // 16
    args = (f"--arg 0=rand:{rows}x128:f32 --arg 1={rows} --arg 2=128 --arg 3=128 --arg 4=1 "
            f"--arg 5=zeros:{rows}x128:f32 --arg 6={rows} --arg 7=128 --arg 8=128 --arg 9=1")
    return text, grid, args, 2 * 4 * rows * 128, "bytes"


def layer_norm(m):
    """M rows of the kernel's N = 1536 (a constant the kernel folds in)."""
    text = (REAL / "layer_norm_fwd.tile").read_text()
    for old, new in (("256x1536", f"{m}x1536"), ("shape = [256, 1536]", f"shape = [{m}, 1536]"),
                     ("shape = [256]", f"shape = [{m}]"), ("tensor_view<256xf32", f"tensor_view<{m}xf32")):
        text = text.replace(old, new)
    run = re.search(r"// tilesight-run: (.*)", text).group(1)
    run = re.sub(r"--grid \S+", "", run).replace("256x1536", f"{m}x1536").replace(":256:", f":{m}:")
    run = re.sub(r"=256\b", f"={m}", run)
    return text, m, run.strip(), 2 * 4 * m * 1536, "bytes"


def gemm_f16(s):
    text = (REAL / "matmul_dyn.tile").read_text()
    grid = (s // 128) * (s // 256) if s >= 256 else 1
    args = (f"--arg 0=rand:{s}x{s}:f16 --arg 1={s} --arg 2={s} --arg 3={s} --arg 4=1 "
            f"--arg 5=rand:{s}x{s}:f16:1 --arg 6={s} --arg 7={s} --arg 8={s} --arg 9=1 "
            f"--arg 10=zeros:{s}x{s}:f16 --arg 11={s} --arg 12={s} --arg 13={s} --arg 14=1")
    return text, grid, args, 2 * s ** 3, "flops"


CASES = {"vector_add": vector_add, "softmax": softmax, "layer_norm": layer_norm, "gemm_f16": gemm_f16}


def tilesight(binary, case, size, device, repeat, check, workdir, flags=()):
    text, grid, args, work, unit = CASES[case](size)
    path = pathlib.Path(workdir) / f"{case}.tile"
    path.write_text(text)
    p = subprocess.run([binary, "check", str(path)], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return {"error": f"tilesight check: {p.stderr.strip() or p.stdout.strip()}"}
    cmd = [binary, "run", str(path), "--device", device, "--grid", f"{grid},1,1", "--format", "json",
           "--repeat", str(repeat)] + (["--check"] if check else []) + list(flags) + args.split()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1) or not p.stdout.strip():
        return {"error": (p.stderr.strip() or p.stdout.strip()).splitlines()[-1] if (p.stderr or p.stdout) else f"exit {p.returncode}"}
    j = json.loads(p.stdout)
    bad = [d["message"] for d in j["diagnostics"] if d.get("severity") == "error"]
    return {"ms": j["run_ms"], "compile_ms": j["compile_ms"], "device": j["device_name"], "work": work, "unit": unit,
            "check": "ok" if not bad else bad[0]}


def torch_peer(case, size, repeat):
    try:
        import torch
        import torch.nn.functional as F
    except ImportError as e:
        return {"error": f"no torch ({e})"}
    if not torch.cuda.is_available():
        return {"error": "torch has no CUDA device"}
    dev = "cuda"
    if case == "vector_add":
        a, b = torch.rand(size, device=dev), torch.rand(size, device=dev)
        c = torch.empty_like(a)
        fn = lambda: torch.add(a, b, out=c)
    elif case == "softmax":
        x = torch.rand(size, 128, device=dev)
        fn = lambda: torch.softmax(x, dim=1)
    elif case == "layer_norm":
        x, w, b = torch.rand(size, 1536, device=dev), torch.rand(1536, device=dev), torch.rand(1536, device=dev)
        fn = lambda: F.layer_norm(x, (1536,), w, b)
    else:
        a = torch.rand(size, size, device=dev, dtype=torch.float16)
        b = torch.rand(size, size, device=dev, dtype=torch.float16)
        fn = lambda: torch.matmul(a, b)
    return {"ms": cuda_time(torch, fn, repeat), "name": "torch"}


def cuda_time(torch, fn, repeat):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def triton_peer(size, repeat):
    try:
        import torch
        import triton
        import triton.language as tl
    except ImportError as e:
        return {"error": f"no triton ({e})"}
    if not torch.cuda.is_available():
        return {"error": "torch has no CUDA device"}

    @triton.jit
    def matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
        pid = tl.program_id(0)
        tiles_m, tiles_n = tl.cdiv(M, BM), tl.cdiv(N, BN)
        group = pid // (GROUP * tiles_n)
        first_m = group * GROUP
        rows = min(tiles_m - first_m, GROUP)
        pm = first_m + (pid % (GROUP * tiles_n)) % rows
        pn = (pid % (GROUP * tiles_n)) // rows
        om = pm * BM + tl.arange(0, BM)
        on = pn * BN + tl.arange(0, BN)
        ok = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            x = tl.load(a + om[:, None] * K + (k + ok)[None, :])
            y = tl.load(b + (k + ok)[:, None] * N + on[None, :])
            acc += tl.dot(x, y)
        tl.store(c + om[:, None] * N + on[None, :], acc.to(tl.float16))

    a = torch.rand(size, size, device="cuda", dtype=torch.float16)
    b = torch.rand(size, size, device="cuda", dtype=torch.float16)
    c = torch.empty(size, size, device="cuda", dtype=torch.float16)
    bm, bn, bk = 128, 256, 64
    grid = ((size // bm) * (size // bn),)
    fn = lambda: matmul[grid](a, b, c, size, size, size, BM=bm, BN=bn, BK=bk, GROUP=8, num_warps=8, num_stages=3)
    return {"ms": cuda_time(torch, fn, repeat), "name": "triton"}


def rate(work, unit, ms):
    per_s = work / (ms / 1e3)
    return f"{per_s / 1e12:.1f} TFLOP/s" if unit == "flops" else f"{per_s / 1e9:.0f} GB/s"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--scale", choices=["full", "small"], default="full")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--run-flag", action="append", default=[])
    ap.add_argument("--markdown", action="store_true")
    o = ap.parse_args()
    rows, failures = [], 0
    with tempfile.TemporaryDirectory() as work:
        for case in CASES:
            if o.only and not any(s in case for s in o.only):
                continue
            checked = tilesight(o.binary, case, CHECK[case], o.device, 1, True, work, o.run_flag)
            size = SIZES[o.scale][case]
            ours = tilesight(o.binary, case, size, o.device, o.repeat, False, work, o.run_flag)
            peers = [torch_peer(case, size, o.repeat)] + ([triton_peer(size, o.repeat)] if case == "gemm_f16" else [])
            rows.append((case, size, checked, ours, peers))
            failures += "error" in ours or checked.get("check") != "ok"
    missing = [r[3]["error"] for r in rows if "no device" in r[3].get("error", "")]
    if rows and len(missing) == len(rows):
        print(f"skipped: {missing[0]}")
        return 77
    print_table(rows, o.markdown)
    return 1 if failures else 0


def print_table(rows, markdown):
    head = ["case", "size", "check", "tilesight ms", "tilesight rate", "peer", "peer ms", "peer rate", "tilesight speed vs peer"]
    lines = []
    for case, size, checked, ours, peers in rows:
        check = checked.get("check", checked.get("error", "?"))
        for i, peer in enumerate(peers):
            cells = [case if i == 0 else "", str(size) if i == 0 else "", check if i == 0 else ""]
            if "error" in ours:
                cells += [ours["error"], "", ]
            else:
                cells += [f"{ours['ms']:.3f}", rate(ours["work"], ours["unit"], ours["ms"])]
            if "error" in peer:
                cells += ["-", peer["error"], "", ""]
            else:
                cells += [peer["name"], f"{peer['ms']:.3f}", rate(ours.get("work", 0), ours.get("unit", ""), peer["ms"]) if "work" in ours else "",
                          f"{100 * peer['ms'] / ours['ms']:.0f}%" if "ms" in ours else ""]
            lines.append(cells)
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for c in lines:
            print("| " + " | ".join(c) + " |")
    else:
        for c in [head] + lines:
            print("  ".join(c))
    devices = {r[3].get("device") for r in rows if "device" in r[3]}
    print(f"tilesight device: {', '.join(d for d in devices if d) or 'none'}")


if __name__ == "__main__":
    sys.exit(main())

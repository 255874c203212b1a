#!/usr/bin/env python3
"""Speed of the CPU reference interpreter (issue 14, acceptance 4), one run, ratios to peers.

Usage: scripts/bench_interp.py [--build build]

- vector add of 2^24 f32 (`tilesight run`, median of 5) vs a plain C++ loop over the same
  number of floats (bench/vec_add_loop.cpp, median of 5): target >= 0.5x its throughput;
- a 1024x1024x1024 f16 GEMM kernel (f32 accumulation, 128x128x32 tiles, a K loop with tokens)
  vs NumPy's f32 matmul (Debian python3-numpy on OpenBLAS) measured here: target >= 0.25x its FLOP rate;
- the sanitizer's cost: vector add of 2^20 f32 with --sanitize vs without: target <= 10x.
Wall times are medians; the CPU seconds of each tilesight process are printed too (the machine is shared).
"""
import argparse, json, os, resource, subprocess, sys, tempfile

VEC_ADD = """cuda_tile.module @bench {{
  entry @vec_add(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>) {{
    %ta = make_tensor_view %a, shape = [{n}], strides = [1] : tensor_view<{n}xf32, strides=[1]>
    %tb = make_tensor_view %b, shape = [{n}], strides = [1] : tensor_view<{n}xf32, strides=[1]>
    %tc = make_tensor_view %c, shape = [{n}], strides = [1] : tensor_view<{n}xf32, strides=[1]>
    %va = make_partition_view %ta : partition_view<tile=({t}), tensor_view<{n}xf32, strides=[1]>>
    %vb = make_partition_view %tb : partition_view<tile=({t}), tensor_view<{n}xf32, strides=[1]>>
    %vc = make_partition_view %tc : partition_view<tile=({t}), tensor_view<{n}xf32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %x, %t1 = load_view_tko weak %va[%bx] : partition_view<tile=({t}), tensor_view<{n}xf32, strides=[1]>>, tile<i32> -> tile<{t}xf32>, token
    %y, %t2 = load_view_tko weak %vb[%bx] : partition_view<tile=({t}), tensor_view<{n}xf32, strides=[1]>>, tile<i32> -> tile<{t}xf32>, token
    %s = addf %x, %y : tile<{t}xf32>
    %t3 = store_view_tko weak %s, %vc[%bx] : tile<{t}xf32>, partition_view<tile=({t}), tensor_view<{n}xf32, strides=[1]>>, tile<i32> -> token
    return
  }}
}}
"""

GEMM = """cuda_tile.module @bench {{
  entry @gemm(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>) {{
    %ta = make_tensor_view %a, shape = [{n}, {n}], strides = [{n}, 1] : tensor_view<{n}x{n}xf16, strides=[{n},1]>
    %tb = make_tensor_view %b, shape = [{n}, {n}], strides = [{n}, 1] : tensor_view<{n}x{n}xf16, strides=[{n},1]>
    %tc = make_tensor_view %c, shape = [{n}, {n}], strides = [{n}, 1] : tensor_view<{n}x{n}xf32, strides=[{n},1]>
    %va = make_partition_view %ta : partition_view<tile=(128x32), tensor_view<{n}x{n}xf16, strides=[{n},1]>>
    %vb = make_partition_view %tb : partition_view<tile=(32x128), tensor_view<{n}x{n}xf16, strides=[{n},1]>>
    %vc = make_partition_view %tc : partition_view<tile=(128x128), tensor_view<{n}x{n}xf32, strides=[{n},1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %kt = constant <i32: {kt}> : tile<i32>
    %zero = constant <f32: 0.0> : tile<128x128xf32>
    %t0 = make_token : token
    %acc, %tk = for %k in (%c0 to %kt, step %c1) : tile<i32> iter_values(%sum = %zero, %tok = %t0) -> (tile<128x128xf32>, token) {{
      %x, %xt = load_view_tko weak %va[%bx, %k] token = %tok : partition_view<tile=(128x32), tensor_view<{n}x{n}xf16, strides=[{n},1]>>, tile<i32> -> tile<128x32xf16>, token
      %y, %yt = load_view_tko weak %vb[%k, %by] token = %tok : partition_view<tile=(32x128), tensor_view<{n}x{n}xf16, strides=[{n},1]>>, tile<i32> -> tile<32x128xf16>, token
      %next = mmaf %x, %y, %sum : tile<128x32xf16>, tile<32x128xf16>, tile<128x128xf32>
      %j = join_tokens %xt, %yt : token
      continue %next, %j : tile<128x128xf32>, token
    }}
    %done = store_view_tko weak %acc, %vc[%bx, %by] token = %tk : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<{n}x{n}xf32, strides=[{n},1]>>, tile<i32> -> token
    return
  }}
}}
"""


def run_tilesight(binary, path, args, repeat):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([binary, "run", path, "--format=json", "--repeat", str(repeat)] + args,
                         capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode not in (0, 1):
        sys.exit("tilesight run failed: " + out.stdout + out.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(out.stdout)["run_ms"], cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    o = ap.parse_args()
    binary = os.path.join(o.build, "tilesight")
    loop = os.path.join(o.build, "bench", "tilesight_vec_add_loop")
    tmp = tempfile.mkdtemp()
    ok = True

    n = 1 << 24
    path = os.path.join(tmp, "vec_add.tile")
    open(path, "w").write(VEC_ADD.format(n=n, t=4096))
    args = ["--grid", str(n // 4096), "--arg", f"a=rand:{n}:f32:1", "--arg", f"b=rand:{n}:f32:2", "--arg", f"c=zeros:{n}:f32"]
    # The machine is shared: five rounds, each the interpreter then the loop, and the median of
    # the rounds' ratios (with their range), so that a busy moment hits both sides alike.
    rounds = []
    for _ in range(5):
        interp_ms, cpu = run_tilesight(binary, path, args, 5)
        loop_ms = float(subprocess.run([loop, str(n), "5"], capture_output=True, text=True).stdout)
        rounds.append((loop_ms / interp_ms, interp_ms, loop_ms, cpu))
    rounds.sort()
    ratio, interp_ms, loop_ms, cpu = rounds[len(rounds) // 2]
    ok &= ratio >= 0.5
    print(f"vec add 2^24 f32 (median of 5 rounds): interpreter {interp_ms:.2f} ms ({cpu:.2f} s CPU for its process), "
          f"C++ loop {loop_ms:.2f} ms: {ratio:.2f}x the loop's throughput (rounds {rounds[0][0]:.2f}x.."
          f"{rounds[-1][0]:.2f}x; target >= 0.5x) {'PASS' if ratio >= 0.5 else 'FAIL'}")

    m = 1 << 20
    small = os.path.join(tmp, "vec_add_small.tile")
    open(small, "w").write(VEC_ADD.format(n=m, t=4096))
    sargs = ["--grid", str(m // 4096), "--arg", f"a=rand:{m}:f32:1", "--arg", f"b=rand:{m}:f32:2", "--arg", f"c=zeros:{m}:f32", "--threads", "1"]
    plain_ms, _ = run_tilesight(binary, small, sargs, 5)
    san_ms, _ = run_tilesight(binary, small, sargs + ["--sanitize"], 1)
    cost = san_ms / plain_ms
    ok &= cost <= 10
    print(f"sanitizer, vec add 2^20 f32 on one thread: plain {plain_ms:.2f} ms, --sanitize {san_ms:.2f} ms: "
          f"{cost:.1f}x (target <= 10x) {'PASS' if cost <= 10 else 'FAIL'}")

    try:
        import numpy as np
    except ImportError:
        print("GEMM: skipped, NumPy is missing (apt-get install python3-numpy libopenblas0-pthread; run with /usr/bin/python3)")
        return 0 if ok else 1
    blas = os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3")
    print(f"NumPy {np.__version__}, BLAS {blas}" + ("" if "openblas" in blas else
          " (not OpenBLAS: apt-get install libopenblas0-pthread, else NumPy's matmul is the slow reference BLAS)"))
    g = 1024
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (g, g)).astype(np.float16)
    b = rng.uniform(-1, 1, (g, g)).astype(np.float16)
    np.save(os.path.join(tmp, "a.npy"), a)
    np.save(os.path.join(tmp, "b.npy"), b)
    gpath = os.path.join(tmp, "gemm.tile")
    open(gpath, "w").write(GEMM.format(n=g, kt=g // 32))
    gargs = ["--grid", f"{g // 128},{g // 128}", "--arg", "a=@" + os.path.join(tmp, "a.npy"), "--arg",
             "b=@" + os.path.join(tmp, "b.npy"), "--arg", f"c=zeros:{g}x{g}:f32"]
    af, bf = a.astype(np.float32), b.astype(np.float32)
    af @ bf
    import time
    flops = 2 * g ** 3
    rounds = []  # as for vec add: rounds of the interpreter then NumPy, the median ratio
    for _ in range(5):
        gemm_ms, cpu = run_tilesight(binary, gpath, gargs, 3)
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            af @ bf
            times.append((time.perf_counter() - t0) * 1e3)
        np_ms = sorted(times)[2]
        rounds.append((np_ms / gemm_ms, gemm_ms, np_ms, cpu))
    rounds.sort()
    ratio, gemm_ms, np_ms, cpu = rounds[len(rounds) // 2]
    ok &= ratio >= 0.25
    print(f"GEMM 1024^3 f16 (f32 acc, median of 5 rounds): interpreter {gemm_ms:.1f} ms = "
          f"{flops / gemm_ms / 1e6:.1f} GFLOP/s ({cpu:.2f} s CPU for its process); NumPy f32 matmul {np_ms:.2f} ms = "
          f"{flops / np_ms / 1e6:.1f} GFLOP/s: {ratio:.3f}x (rounds {rounds[0][0]:.3f}x..{rounds[-1][0]:.3f}x; "
          f"target >= 0.25x) {'PASS' if ratio >= 0.25 else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# The dataflow checks' cost (issue 5, acceptance 3): analyze a generated
# 50,000-op memory-heavy program (views, token-threaded loops, block ids,
# pointer tiles) with the four checks off and on; print both times and what
# the checks add next to what parse + verify take.
set -euo pipefail
cd "$(dirname "$0")/.."
OPS=50000  # the size BM_Kernels runs (bench/parse_bench.cpp)
TILESIGHT_EXTRA_PACKAGES="libbenchmark-dev" scripts/install-deps.sh
scripts/build.sh >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Sanity: the program is clean, so the checks do all their work and report nothing.
build/bench/tilesight_bench_gen "$OPS" kernels >"$tmp/kernels.tile"
build/tilesight check "$tmp/kernels.tile"
build/bench/tilesight_parse_bench --benchmark_filter=BM_Kernels --benchmark_repetitions=10 \
  --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true --benchmark_format=json >"$tmp/bench.json"
python3 - "$tmp/bench.json" "$OPS" <<'PY'
import json, sys
runs = {b["run_name"].split("/")[1]: b for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b.get("aggregate_name") == "median"}
base, full = runs["parse_verify"]["real_time"], runs["parse_verify_checks"]["real_time"]
ops = int(sys.argv[2])
print(f"{ops} ops, median of 10, interleaved: parse + verify {base:.1f} ms ({base * 1000 / ops:.2f} us/op); "
      f"with the four checks {full:.1f} ms; the checks add {full - base:.1f} ms = {(full - base) / base:.2f}x parse + verify")
print("target: the checks add at most 0.5x the time of parse + verify:", "PASS" if full - base <= 0.5 * base else "FAIL")
PY

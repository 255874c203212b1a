#!/usr/bin/env bash
# Issue 2, acceptance 4: parse + verify a generated 50,000-op program; print µs/op for
# tilesight and the ratio against mlir-opt-14 parsing the same program in generic form.
set -euo pipefail
cd "$(dirname "$0")/.."
OPS=${OPS:-50000}
RUNS=${RUNS:-5}
TILESIGHT_EXTRA_PACKAGES="mlir-14-tools libbenchmark-dev bc" scripts/install-deps.sh
scripts/build.sh >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build/bench/tilesight_bench_gen "$OPS" custom >"$tmp/custom.tile"
build/bench/tilesight_bench_gen "$OPS" generic >"$tmp/generic.mlir"

best() {  # best wall time in seconds of RUNS runs of "$@"
  local best=999999 t
  for _ in $(seq "$RUNS"); do
    local s e
    s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    if (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
  done
  echo "$best"
}
# Sanity: the generated programs are clean for tilesight and parse for mlir-opt.
build/tilesight check "$tmp/custom.tile" >/dev/null
mlir-opt-14 --allow-unregistered-dialect "$tmp/generic.mlir" -o /dev/null

ts_custom=$(best build/tilesight check "$tmp/custom.tile")
ts_generic=$(best build/tilesight check "$tmp/generic.mlir")
mo=$(best mlir-opt-14 --allow-unregistered-dialect "$tmp/generic.mlir" -o /dev/null)
printf 'ops: %d (best of %d runs, whole process)\n' "$OPS" "$RUNS"
printf 'tilesight check, custom form : %8.1f ms  %.3f us/op\n' "$(echo "$ts_custom*1000" | bc -l)" "$(echo "$ts_custom*1000000/$OPS" | bc -l)"
printf 'tilesight check, generic form: %8.1f ms  %.3f us/op\n' "$(echo "$ts_generic*1000" | bc -l)" "$(echo "$ts_generic*1000000/$OPS" | bc -l)"
printf 'mlir-opt-14, generic form    : %8.1f ms  %.3f us/op\n' "$(echo "$mo*1000" | bc -l)" "$(echo "$mo*1000000/$OPS" | bc -l)"
printf 'speed-up vs mlir-opt-14: %.1fx (custom form), %.1fx (generic form)\n' "$(echo "$mo/$ts_custom" | bc -l)" "$(echo "$mo/$ts_generic" | bc -l)"
# mlir-opt's own timing report separates its parser from printing the output.
mo_parse=$(mlir-opt-14 --allow-unregistered-dialect --mlir-timing "$tmp/generic.mlir" -o /dev/null 2>&1 |
  awk '/Parser$/ {print $1}')
printf 'mlir-opt-14 parser phase alone (its --mlir-timing): %.1f ms  %.3f us/op\n' \
  "$(echo "$mo_parse*1000" | bc -l)" "$(echo "$mo_parse*1000000/$OPS" | bc -l)"
if [[ -x build/bench/tilesight_parse_bench ]]; then
  echo "in-process parse + verify (Google Benchmark):"
  build/bench/tilesight_parse_bench --benchmark_min_time=0.5 2>/dev/null | grep -E "BM_|Benchmark"
fi

#!/usr/bin/env bash
# The language server next to mlir-lsp-server-14 on generated programs of 1k,
# 10k and 50k ops (SIZES; 200000 is the large case), in entries of about
# OPS_PER_ENTRY (default 1000) ops each: change -> diagnostics latency (as
# ranges, as the whole new text, and the same text resent), hover,
# navigation, completion and semantic tokens latency, resident memory
# (bench/lsp_bench.py measures, this script prepares).
# tilesight reads the custom form, mlir-lsp-server-14 the same program in
# generic form.
# Arguments go to the client: --debounce-ms D, --json PATH, --edits, --hovers.
# --self-check checks the client and runs both servers briefly on 300 ops.
# BUILD (default build) and JOBS (default nproc) choose the build.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
SIZES=${SIZES:-1000,10000,50000}
OPS_PER_ENTRY=${OPS_PER_ENTRY:-1000}
TILESIGHT_EXTRA_PACKAGES="mlir-14-tools python3" scripts/install-deps.sh
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target tilesight tilesight_bench_gen \
  >/dev/null

for a in "$@"; do [[ $a == --self-check ]] && SIZES=300; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in ${SIZES//,/ }; do
  entries=$(( (n + OPS_PER_ENTRY - 1) / OPS_PER_ENTRY ))
  "$BUILD"/bench/tilesight_bench_gen "$n" custom "$entries" >"$tmp/ops$n.tile"
  "$BUILD"/bench/tilesight_bench_gen "$n" generic "$entries" >"$tmp/ops$n.mlir"
done
mkdir "$tmp/logs"
python3 bench/lsp_bench.py --dir "$tmp" --sizes "$SIZES" \
  --tilesight "$BUILD/tilesight" --mlir mlir-lsp-server-14 \
  --log-dir "$tmp/logs" "$@"

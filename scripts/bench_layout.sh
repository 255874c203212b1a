#!/usr/bin/env bash
# Issue 3, acceptance 3: time deciding injectivity of layouts of size 2^20..2^30
# (decide(): sorted strides, superincreasing, pair collision, block split, mode
# cap, bitset DP) next to enumerating every offset. Enumeration runs at 2^20 and
# 2^24 only: it is linear in the size, so 2^28 and 2^30 would take minutes.
# BUILD (default build) and JOBS (default nproc) choose the build.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
TILESIGHT_EXTRA_PACKAGES="libbenchmark-dev" scripts/install-deps.sh
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" --target tilesight_layout_bench -j "$JOBS" >/dev/null
echo "decide(): per decision; enumeration: one full pass (hash set of call(l, i), or an odometer over a bitset)"
"$BUILD"/bench/tilesight_layout_bench "$@" 2>/dev/null | grep -E "BM_|Benchmark|---"

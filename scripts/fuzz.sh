#!/usr/bin/env bash
# Issue 2, acceptance 5: run the parser fuzzer (default 600 s) with ASan+UBSan.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-600}
TILESIGHT_EXTRA_PACKAGES="clang-14 libclang-rt-14-dev" scripts/install-deps.sh
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESIGHT_FUZZ=ON \
  -DTILESIGHT_TESTS=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target tilesight_parser_fuzz
corpus=build-fuzz/corpus
mkdir -p "$corpus"
cp tests/corpus/valid/*.tile tests/corpus/invalid/*.tile examples/*.tile "$corpus"/ 2>/dev/null || true
# -timeout: any input taking over 10 s counts as a hang; -rss_limit_mb: memory blow-ups fail too.
build-fuzz/fuzz/tilesight_parser_fuzz "$corpus" -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=2048 \
  -max_len=8192 -print_final_stats=1 2>&1 | tail -25

#!/usr/bin/env bash
# Run a libFuzzer target with ASan+UBSan (default: the parser for 600 s).
#   scripts/fuzz.sh [SECONDS] [parser|layout|lsp|bytecode]
# lsp: the language server's framing, dispatch, documents and features, fed
# the client side of a connection (seeded with the tests/lsp transcripts).
# bytecode: the bytecode reader, then the checks on its text (seeded with the
# cuTile corpus's .tilebc files).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-600}
TARGET=${2:-parser}
TILESIGHT_EXTRA_PACKAGES="clang-14 libclang-rt-14-dev" scripts/install-deps.sh
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESIGHT_FUZZ=ON \
  -DTILESIGHT_TESTS=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target "tilesight_${TARGET}_fuzz"
corpus=build-fuzz/corpus-$TARGET
mkdir -p "$corpus"
if [[ $TARGET == parser ]]; then
  for f in tests/corpus/valid/*.tile tests/corpus/invalid/*.tile examples/*.tile; do
    cp "$f" "$corpus/$(echo "$f" | tr / _)"  # the same name can sit in two folders
  done
elif [[ $TARGET == bytecode ]]; then
  find tests/corpus/cutile -name '*.tilebc' | while read -r f; do cp "$f" "$corpus/$(echo "$f" | tr / _)"; done
elif [[ $TARGET == lsp ]]; then
  python3 fuzz/lsp_seeds.py tests/lsp "$corpus"
else  # seed with the expressions of the layout corpus files
  grep -ho '#layout<.*>' tests/corpus/*/layouts.tile | sed 's/^#layout<//; s/>$//' |
    awk '{ f = sprintf("%s/seed%03d", dir, NR); printf "%s", $0 > f; close(f) }' dir="$corpus"
fi
# -timeout: any input taking over 10 s counts as a hang; -rss_limit_mb: memory blow-ups fail too.
"build-fuzz/fuzz/tilesight_${TARGET}_fuzz" "$corpus" -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=2048 \
  -max_len=8192 -artifact_prefix=build-fuzz/ -print_final_stats=1 2>&1 | tail -25

#!/usr/bin/env bash
# Configures and builds tilesight into build/ (Release). Extra args go to cmake.
#   scripts/build.sh          the tool, the tests and the benchmarks
#   scripts/build.sh --cli    only the tilesight executable (what install-deps.sh cli can build)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
tests=ON
target=()
if [[ "${1:-}" == "--cli" ]]; then
  shift
  tests=OFF
  target=(--target tilesight)
fi
# CI builds treat warnings as errors (DESIGN §6).
werror=OFF
[[ "${CI:-}" == "true" ]] && werror=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTILESIGHT_WERROR="$werror" -DTILESIGHT_TESTS="$tests" "$@" >/dev/null
cmake --build build -j "$jobs" "${target[@]}"

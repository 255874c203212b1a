#!/usr/bin/env bash
# Configures and builds tilesight into build/ (Release). Extra args go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# CI builds treat warnings as errors (DESIGN §6).
werror=OFF
[[ "${CI:-}" == "true" ]] && werror=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTILESIGHT_WERROR="$werror" "$@" >/dev/null
cmake --build build -j "$jobs"

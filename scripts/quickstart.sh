#!/usr/bin/env bash
# The README's two commands:
#   scripts/quickstart.sh example   install what the command-line tool needs, build it, check the shipped examples
#   scripts/quickstart.sh test      install everything the tests need, build all, run every test
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  example)
    scripts/install-deps.sh cli
    scripts/build.sh --cli
    echo "== build/tilesight check examples/gemm_with_bugs.tile"
    status=0
    build/tilesight check examples/gemm_with_bugs.tile || status=$?
    echo "== exit status $status (1: the example has errors on purpose)"
    [[ $status -eq 1 ]]
    echo "== build/tilesight check --grid=8,8,1 examples/gemm_ub.tile"
    status=0
    build/tilesight check --grid=8,8,1 examples/gemm_ub.tile || status=$?
    echo "== exit status $status (1: undefined behaviour, proved with concrete values)"
    [[ $status -eq 1 ]]
    echo "== build/tilesight check examples/gemm.tile"
    build/tilesight check examples/gemm.tile
    echo "== exit status 0: no diagnostics"
    # cuTile's bytecode (what CUDA_TILE_DUMP_BYTECODE=dir writes), reported at its Python lines.
    echo "== build/tilesight check tests/corpus/cutile/bugs/argmax_rows_bug1.argmax_rows.13_3.tilebc"
    status=0
    build/tilesight check tests/corpus/cutile/bugs/argmax_rows_bug1.argmax_rows.13_3.tilebc || status=$?
    echo "== exit status $status (1: a race, at the line of the cuTile Python source)"
    [[ $status -eq 1 ]]
    ;;
  test)
    scripts/install-deps.sh
    scripts/build.sh
    ctest --test-dir build --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"
    ;;
  *)
    echo "usage: scripts/quickstart.sh example|test" >&2
    exit 2
    ;;
esac

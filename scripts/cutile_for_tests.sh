#!/usr/bin/env bash
# Builds NVIDIA's cuTile (cuda.tile, compile-only: no GPU, no driver) for the tests that need it
# (ctest fixture cutile.build; docs/cutile.md "Tests"), into OUT/pkg.
#
#   scripts/cutile_for_tests.sh OUT
#
# No package registry offers cuTile, so it is built from source with ../shared/tools/cutile/build.sh
# beside the checkout and the fetched mirrors of NVIDIA/cutile-python and dmlc/dlpack ($CUTILE_GIT
# and $DLPACK_GIT, else the first .mirror folder in or above the checkout's parent that holds
# both). Where any is missing it says so and exits 0: the tests that need cuTile then skip and say
# why. TILESIGHT_REQUIRE_CUTILE=1 makes a missing cuTile a failure instead.
set -uo pipefail
out=${1:?usage: cutile_for_tests.sh OUT}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=${PY:-/usr/bin/python3}

skip() {
  echo "SKIP cuTile: $1: the tests that need cuTile skip"
  [ "${TILESIGHT_REQUIRE_CUTILE:-0}" = 1 ] && exit 1
  exit 0
}

if PYTHONPATH=$out/pkg $PY -c 'import cuda.tile' 2>/dev/null; then
  echo "cuTile: $out/pkg (built before: $(cat "$out/COMMIT" 2>/dev/null))"
  exit 0
fi
build=""
for c in "$root/../shared/tools/cutile/build.sh" "$root/shared/tools/cutile/build.sh"; do
  if [ -f "$c" ]; then build=$c; break; fi
done
[ -n "$build" ] || skip "no shared/tools/cutile/build.sh beside the checkout"
cutile=${CUTILE_GIT:-}
dlpack=${DLPACK_GIT:-}
dir=$(dirname "$root")
while [ -z "$cutile$dlpack" ] || [ -z "$cutile" ] || [ -z "$dlpack" ]; do
  if [ -d "$dir/.mirror/NVIDIA+cutile-python/repo" ] && [ -d "$dir/.mirror/dmlc+dlpack/repo" ]; then
    cutile=${cutile:-$dir/.mirror/NVIDIA+cutile-python/repo}
    dlpack=${dlpack:-$dir/.mirror/dmlc+dlpack/repo}
    break
  fi
  [ "$dir" = / ] && break
  dir=$(dirname "$dir")
done
[ -n "$cutile" ] && [ -n "$dlpack" ] ||
  skip "no mirror of NVIDIA/cutile-python and dmlc/dlpack (set CUTILE_GIT and DLPACK_GIT)"
CUTILE_GIT=$cutile DLPACK_GIT=$dlpack OUT=$out PY=$PY bash "$build" || skip "its build failed (above)"

#!/usr/bin/env bash
# Rebuilds the bytecode and launch files of tests/corpus/cutile from its Python sources with
# NVIDIA's real cuTile compiler, as listed in tests/corpus/cutile/manifest.txt.
#
#   PYTHONPATH=<OUT of shared/tools/cutile/build.sh>/pkg scripts/build_cutile_corpus.sh [--check] [FILTER]
#
# Each "kernel" line of the manifest gives NAME.KERNEL.13_1.tilebc (sm_100), .13_2.tilebc
# (sm_90), .13_3.tilebc, .13_4.tilebc and NAME.KERNEL.launch.json (written with the 13.3
# compile); each "bug" line gives NAME.KERNEL.13_3.tilebc and NAME.KERNEL.launch.json; each
# "rejected" line must fail to compile (cuTile refuses it) and writes nothing. A kind with a
# version, "kernel@13.4" or "bug@13.4", compiles at that version only (what cuTile accepts only
# there: ct.insert, grid dependency control), the launch file from that compile.
# File paths in the debug info are made relative to the repository (--prefix-map), cuTile's
# own files appear as <cutile>/..., so the output does not depend on where things live.
# --check builds into a temporary folder and compares with the committed files (byte for byte).
# FILTER: only manifest lines containing this string.
# compile.py: $CUTILE_COMPILE, else shared/tools/cutile/compile.py next to or above the checkout.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
corpus=$root/tests/corpus/cutile
PY=${PY:-/usr/bin/python3}
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
filter=${1:-}

compile=${CUTILE_COMPILE:-}
if [ -z "$compile" ]; then
  for c in "$root/shared/tools/cutile/compile.py" "$root/../shared/tools/cutile/compile.py" \
           "$root/../../shared/tools/cutile/compile.py"; do
    if [ -f "$c" ]; then compile=$c; break; fi
  done
fi
[ -n "$compile" ] && [ -f "$compile" ] || { echo "no compile.py: set CUTILE_COMPILE" >&2; exit 1; }
pkg=$($PY -c 'import os, cuda.tile as t; print(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(t.__file__)))))') \
  || { echo "cuda.tile not importable: set PYTHONPATH to a built cuTile" >&2; exit 1; }

if [ $check = 1 ]; then
  out=$(mktemp -d); mkdir -p "$out/kernels" "$out/bugs"; trap 'rm -rf "$out"' EXIT
else
  out=$corpus
fi

run() {  # run FILE KERNEL GRID VERSION SM OUTPUT LAUNCH ARGS...
  local file=$1 kernel=$2 grid=$3 version=$4 sm=$5 output=$6 launch=$7; shift 7
  local a=()
  for x in "$@"; do a+=(--arg "$x"); done
  [ -n "$sm" ] && a+=(--sm-arch "$sm")
  [ -n "$launch" ] && a+=(--launch "$launch")
  (cd "$root" && "$PY" "$compile" "tests/corpus/cutile/$file" "$kernel" "${a[@]}" --grid "$grid" \
      --version "$version" --prefix-map "$root/=" --prefix-map "$pkg/=<cutile>/" -o "$output")
}

n=0
while read -r kind file kernel grid args; do
  case "$kind" in ''|'#'*) continue ;; esac
  line="$kind $file $kernel $grid $args"
  if [ -n "$filter" ] && [[ "$line" != *"$filter"* ]]; then continue; fi
  # shellcheck disable=SC2206
  argv=($args)
  dir=$(dirname "$file"); base=$(basename "$file" .py)
  stem=$out/$dir/$base.$kernel
  case "$kind" in
    kernel@*|bug@*)
      only=${kind#*@}
      run "$file" "$kernel" "$grid" "$only" "" "$stem.${only/./_}.tilebc" "$stem.launch.json" "${argv[@]}" >/dev/null ;;
    kernel)
      run "$file" "$kernel" "$grid" 13.1 sm_100 "$stem.13_1.tilebc" "" "${argv[@]}" >/dev/null
      run "$file" "$kernel" "$grid" 13.2 sm_90 "$stem.13_2.tilebc" "" "${argv[@]}" >/dev/null
      run "$file" "$kernel" "$grid" 13.3 "" "$stem.13_3.tilebc" "$stem.launch.json" "${argv[@]}" >/dev/null
      run "$file" "$kernel" "$grid" 13.4 "" "$stem.13_4.tilebc" "" "${argv[@]}" >/dev/null ;;
    bug)
      run "$file" "$kernel" "$grid" 13.3 "" "$stem.13_3.tilebc" "$stem.launch.json" "${argv[@]}" >/dev/null ;;
    rejected)
      tmp=$(mktemp)
      if run "$file" "$kernel" "$grid" 13.3 "" "$tmp" "" "${argv[@]}" >/dev/null 2>&1; then
        rm -f "$tmp"; echo "$file $kernel: expected cuTile to reject it, but it compiled" >&2; exit 1
      fi
      rm -f "$tmp" ;;
    *) echo "manifest: unknown kind $kind" >&2; exit 1 ;;
  esac
  n=$((n + 1))
  echo "$kind $file $kernel"
done < "$corpus/manifest.txt"

if [ $check = 1 ]; then
  bad=0
  for f in $(cd "$out" && find . -type f \( -name '*.tilebc' -o -name '*.launch.json' \) | sort); do
    if ! cmp -s "$out/$f" "$corpus/$f"; then echo "differs: $f" >&2; bad=1; fi
  done
  [ $bad = 0 ] && echo "check: $n manifest lines, all files identical" || exit 1
else
  echo "built $n manifest lines"
fi

#!/usr/bin/env bash
# e2e.nvim (ctest): a headless Neovim with editors/nvim on its runtimepath
# runs test.lua against the tilesight executable given as $1. Exits 77 (the
# test's SKIP_RETURN_CODE) when nvim is not installed, unless
# TILESIGHT_REQUIRE_E2E=1 (CI), where a missing nvim fails.
set -euo pipefail
if [[ $# -ne 1 ]]; then
  echo "usage: $0 TILESIGHT_BINARY" >&2
  exit 2
fi
if ! command -v nvim >/dev/null; then
  if [[ "${TILESIGHT_REQUIRE_E2E:-}" == 1 ]]; then
    echo "FAIL: nvim not found and TILESIGHT_REQUIRE_E2E=1" \
      "(install neovim, e.g. scripts/install-deps.sh)"
    exit 1
  fi
  echo "SKIPPED: nvim not found (install neovim, e.g. scripts/install-deps.sh)"
  exit 77
fi

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)

# Everything Neovim writes (its logs, the LSP log, shada, swap files) and the
# test's files go to one scratch directory, removed on exit.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tilesight-e2e-nvim.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export XDG_CONFIG_HOME=$scratch/xdg/config XDG_DATA_HOME=$scratch/xdg/data \
  XDG_STATE_HOME=$scratch/xdg/state XDG_CACHE_HOME=$scratch/xdg/cache \
  NVIM_LOG_FILE=$scratch/xdg/nvim.log
export TILESIGHT_BINARY=$1 TILESIGHT_E2E_DIR=$scratch/work
export TILESIGHT_NVIM_PLUGIN=$repo/editors/nvim
export TILESIGHT_NVIM_TEST=$here/test.lua
mkdir -p "$TILESIGHT_E2E_DIR"

# test.lua's own waits end well before this limit, which only stops a Neovim
# that hangs, in time for the trap to run (ctest's TIMEOUT is 120 s).
status=0
timeout -k 5 100 nvim --headless --clean -i NONE \
  --cmd 'lua vim.opt.runtimepath:prepend(os.getenv("TILESIGHT_NVIM_PLUGIN"))' \
  -c 'lua dofile(os.getenv("TILESIGHT_NVIM_TEST"))' </dev/null || status=$?
if [[ $status -eq 124 || $status -eq 137 ]]; then
  echo "FAIL: nvim did not finish within 100 s"
elif [[ $status -eq 77 ]]; then
  status=1 # not a skip
fi
exit "$status"

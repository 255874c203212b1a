#!/usr/bin/env bash
# e2e.vscode_editor: the .vsix, built as the README says, in VS Code itself
# (code-server) with headless Chromium as the user (test.js says what is
# checked). Usage: run.sh TILESIGHT_BINARY
# Skips (exit 77) with the reason when Chromium or the VS Code set-up is
# missing, unless TILESIGHT_REQUIRE_E2E=1 makes that a failure. KEEP=1 keeps
# the scratch directory (code-server log, VS Code logs, screenshots).
# TILESIGHT_CUTILE_PKG (ctest sets it: the fixture cutile) gives the cuTile
# Python part its cuTile; without one that imports, test.js skips that part
# alone and says why (TILESIGHT_REQUIRE_CUTILE=1 makes it a failure).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
binary=$(realpath "$1")

missing() {
  if [[ "${TILESIGHT_REQUIRE_E2E:-}" == 1 ]]; then
    echo "FAIL: $1 (TILESIGHT_REQUIRE_E2E=1)"
    exit 1
  fi
  echo "SKIP: $1"
  exit 77
}
command -v node >/dev/null || missing "node is not installed"
chromium=$(command -v chromium || true)
[[ -n "$chromium" ]] || missing "chromium is not installed (scripts/install-deps.sh installs it)"
[[ "$(cat "$here/node_modules/.tilesight-ready" 2>/dev/null)" == "$(sha256sum <"$here/package-lock.json")" ]] ||
  missing "VS Code is not set up for this package-lock.json: run tests/e2e/vscode_editor/setup.sh (scripts/install-deps.sh does)"
[[ -d "$root/editors/vscode/node_modules" ]] || missing "editors/vscode has no node_modules: run npm ci there"

scratch=$(mktemp -d)
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$scratch"' EXIT
echo "== npm run package (editors/vscode)"
(cd "$root/editors/vscode" && npm run --silent package >"$scratch/package.log" 2>&1) ||
  { cat "$scratch/package.log"; echo "FAIL: npm run package"; exit 1; }
cp "$root/editors/vscode/tilesight.vsix" "$scratch/"
mkdir "$scratch/run"

echo "== test.js"
status=0
TILESIGHT_BINARY="$binary" TILESIGHT_VSIX="$scratch/tilesight.vsix" TILESIGHT_E2E_DIR="$scratch/run" \
  CHROMIUM="$chromium" timeout 240 node "$here/test.js" || status=$?
if [[ $status -ne 0 ]]; then
  echo "== code-server log (last 40 lines)"
  tail -n 40 "$scratch/run/code-server.log" 2>/dev/null || true
  # Keep the failure screenshot where ctest's output can point.
  [[ -f "$scratch/run/failure.png" ]] && cp "$scratch/run/failure.png" "${TMPDIR:-/tmp}/e2e.vscode_editor.failure.png" &&
    echo "screenshot: ${TMPDIR:-/tmp}/e2e.vscode_editor.failure.png"
fi
exit $status

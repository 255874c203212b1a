#!/usr/bin/env bash
# The VS Code extension's checks (editors/vscode/scripts/test.sh: type-check,
# unit and grammar tests, packaging into a .vsix). Its npm packages come from
# scripts/install-deps.sh (npm ci); without them this test is skipped with a
# reason, unless TILESIGHT_REQUIRE_E2E=1 (CI), where that is a failure.
set -uo pipefail
ext="$(cd "$(dirname "$0")/../../../editors/vscode" && pwd)"
missing=""
command -v node >/dev/null || missing="node"
[[ -d "$ext/node_modules" ]] || missing="${missing:+$missing, }editors/vscode/node_modules"
if [[ -n "$missing" ]]; then
  if [[ "${TILESIGHT_REQUIRE_E2E:-}" == 1 ]]; then
    echo "FAIL: missing $missing (run scripts/install-deps.sh)"
    exit 1
  fi
  echo "SKIPPED: missing $missing (run scripts/install-deps.sh)"
  exit 77
fi
sh "$ext/scripts/test.sh"
status=$?
[[ $status -eq 77 ]] && status=1  # never read a failure as a skip
exit $status

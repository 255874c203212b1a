#!/usr/bin/env bash
# Passes when building the target tilesight_forbidden_include fails because
# the compiler cannot find analysis/checks/checks.h, and for no other reason.
#   forbidden_include.sh BUILD_DIR
set -uo pipefail
out=$(cmake --build "$1" --target tilesight_forbidden_include 2>&1)
status=$?
if [[ $status -eq 0 ]]; then
  echo "the build of tilesight_forbidden_include succeeded: ir/ can include checks/"
  exit 1
fi
if ! grep -q 'analysis/checks/checks.h: No such file or directory' <<<"$out"; then
  echo "the build failed, but not because analysis/checks/checks.h was not found:"
  echo "$out"
  exit 1
fi
echo "analysis/checks/checks.h is not found with the ir library's include paths, as it should be"

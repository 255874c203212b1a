#!/usr/bin/env bash
# Installs the Debian 12 packages tilesight needs to build and test, if missing.
set -euo pipefail

# zlib1g-dev: LLVM 14's CMake package links LLVMSupport against ZLIB::ZLIB but llvm-14-dev does not pull it in.
# neovim: the editor that the e2e.nvim test drives (tests/e2e/nvim); strace and
# python3: the language server's I/O audit (tests/e2e/audit).
PACKAGES=(cmake make g++ llvm-14-dev zlib1g-dev nlohmann-json3-dev libboost-dev libgtest-dev googletest neovim strace python3)
if [[ "${TILESIGHT_EXTRA_PACKAGES:-}" != "" ]]; then
  read -r -a extra <<<"$TILESIGHT_EXTRA_PACKAGES"
  PACKAGES+=("${extra[@]}")
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 2; }
  SUDO=sudo
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

#!/usr/bin/env bash
# Installs what tilesight needs, if missing, from Debian 12 packages and lock files:
#   scripts/install-deps.sh cli    only what building the command-line tool needs
#   scripts/install-deps.sh        everything the tests need too: the editors' and VS Code's npm
#                                  packages, the SARIF validator, Neovim, Chromium, OpenCL, HIP...
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
[[ $mode == cli || $mode == all ]] || { echo "usage: scripts/install-deps.sh [cli]" >&2; exit 2; }

# The command-line tool: a C++20 compiler, CMake, LLVM 14's Support library, nlohmann_json,
# Boost.Asio (headers) and toml++ (check's .tilesight.toml).
# zlib1g-dev: LLVM 14's CMake package links LLVMSupport against ZLIB::ZLIB but llvm-14-dev does not pull it in.
CLI_PACKAGES=(cmake make g++ llvm-14-dev zlib1g-dev nlohmann-json3-dev libboost-dev libtomlplusplus-dev libz3-dev)
# The tests:
# GoogleTest: the unit, command-line and language-server tests.
# neovim: the editor that the e2e.nvim test drives (tests/e2e/nvim); strace and
# python3: the language server's I/O audit (tests/e2e/audit).
# nodejs, npm: the VS Code extension's build and tests (editors/vscode); npm only when
# no npm command exists (NodeSource's nodejs package brings its own and conflicts with Debian's).
# chromium, ripgrep and Node's headers (libnode-dev, unless the installed nodejs brings them):
# VS Code itself in e2e.vscode_editor (tests/e2e/vscode_editor: code-server in headless Chromium).
# python3-numpy: the NumPy parity test of `tilesight run` (scripts/numpy_parity.py) and the
# interpreter's benchmark, whose GEMM peer is NumPy's matmul on OpenBLAS (libopenblas0-pthread;
# without it NumPy falls back to the reference BLAS, 50x slower).
# ocl-icd-libopencl1, pocl-opencl-icd: OpenCL on the CPU, a device `tilesight devices` lists and the
# GPU backends' test device (loaded with dlopen at run time; nothing links them). libamdhip64-5:
# ROCm 5.2's HIP runtime, which holds hiprtc: the HIP output's compile-only check (no AMD GPU needed).
# python3-pil: the layout pictures rendered in headless Chromium against stored PNGs
# (tests/e2e/pictures), where librsvg2-2 draws `layout --format=png` (loaded at run time).
# python3-jsonschema: the SARIF report against the 2.1.0 schema (tests/sarif). dpkg-dev: the
# Debian package's Depends (dpkg-shlibdeps) in its test (tests/package), which also completes
# words through bash-completion.
PACKAGES=("${CLI_PACKAGES[@]}")
if [[ $mode == all ]]; then
  PACKAGES+=(libgtest-dev googletest neovim strace python3 python3-numpy python3-jsonschema python3-pil librsvg2-2 dpkg-dev bash-completion libopenblas0-pthread
             ocl-icd-libopencl1 pocl-opencl-icd libamdhip64-5 nodejs chromium ripgrep)
  command -v npm >/dev/null || PACKAGES+=(npm)
  [[ -f /usr/include/node/node_api.h ]] || PACKAGES+=(libnode-dev)
fi
if [[ "${TILESIGHT_EXTRA_PACKAGES:-}" != "" ]]; then
  read -r -a extra <<<"$TILESIGHT_EXTRA_PACKAGES"
  PACKAGES+=("${extra[@]}")
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 2; }
    SUDO=sudo
  fi
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[[ $mode == cli ]] && exit 0

# npm packages exactly as a lock file pins them; again whenever the lock file
# changes (a stamp in node_modules holds its hash).
npm_ci() {
  local lock
  lock=$(sha256sum <"$1/package-lock.json")
  if [[ "$(cat "$1/node_modules/.tilesight-lock" 2>/dev/null)" != "$lock" ]]; then
    echo "install-deps: npm ci in $1"
    (cd "$1" && npm ci --no-audit --no-fund >/dev/null)
    echo "$lock" >"$1/node_modules/.tilesight-lock"
  fi
}
npm_ci editors/vscode  # the VS Code extension
npm_ci tests/sarif     # Microsoft's SARIF validator

# VS Code (code-server) and playwright-core for e2e.vscode_editor, from their lock file; the
# native modules are compiled here, once per lock file (setup.sh keeps its own stamp).
tests/e2e/vscode_editor/setup.sh >/dev/null

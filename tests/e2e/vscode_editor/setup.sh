#!/usr/bin/env bash
# Installs VS Code for e2e.vscode_editor, offline after the npm registry:
# code-server (VS Code OSS for a browser) and playwright-core from the lock
# file, then what code-server's own install script would do, without its
# downloads: VS Code's dependencies from its shrinkwrap, the native modules
# the server loads compiled against this Node, and Debian's ripgrep in place
# of the binary @vscode/ripgrep would fetch. Needs node, npm, g++, make,
# python3, Node's headers and rg (scripts/install-deps.sh installs them).
# Does nothing when already done for this package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"
ready=node_modules/.tilesight-ready  # holds the hash of the lock file it was set up from
lock=$(sha256sum <package-lock.json)
[[ -f $ready && "$(cat "$ready")" == "$lock" ]] && exit 0
echo "setup: VS Code (code-server) for e2e.vscode_editor" >&2

npm ci --no-audit --no-fund
vscode=node_modules/code-server/lib/vscode
# `npm install`, as code-server's script runs it: its shrinkwrap does not match its package.json
# well enough for `npm ci`.
(cd "$vscode" && npm install --omit=dev --legacy-peer-deps --ignore-scripts --no-audit --no-fund)

# node-gyp compiles against the installed headers instead of fetching them;
# node-pre-gyp (argon2) builds from source instead of trying a download.
[[ -f /usr/include/node/node_api.h ]] || { echo "setup: Node's headers are missing (/usr/include/node)" >&2; exit 1; }
export npm_config_nodedir=/usr npm_config_build_from_source=true
npm rebuild --ignore-scripts=false argon2
(cd "$vscode" && npm rebuild --ignore-scripts=false @vscode/spdlog native-watchdog node-pty)

# VS Code and its extensions look for bundled modules under node_modules.asar.
ln -sfn node_modules "$vscode/node_modules.asar"
mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
ln -sfn "$(command -v rg)" "$vscode/node_modules/@vscode/ripgrep/bin/rg"

node node_modules/code-server/out/node/entry.js --version
echo "$lock" >"$ready"

#!/usr/bin/env bash
# What `scripts/quickstart.sh example` downloads on a fresh Debian 12, measured with apt's own
# resolver, installing nothing: a fresh machine is modelled as Debian's Priority: required
# packages plus apt (what `debootstrap --variant=minbase` installs, close to the debian:12
# image), and a package set costs what apt would download for it on top of that.
#   scripts/measure_install.sh
# Prints `install-deps.sh cli` (the example's set now) and `install-deps.sh` (everything: the
# example's set before, and the test command's), and the npm packages the second adds (their size
# on disk, from this checkout's node_modules folders).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/status"  # nothing installed
mkdir -p "$work/archives/partial"
mapfile -t base < <(apt-cache dumpavail | awk -v RS= '/\nPriority: required\n/ { sub(/^Package: /, ""); sub(/\n.*/, ""); print }' | sort -u)
base+=(apt)
uris() {
  apt-get -qq --print-uris -o Dir::State::status="$work/status" -o Dir::Cache::archives="$work/archives" \
    -o APT::Install-Recommends=false install "$@" | awk '{ print $2, $3 }' | sort -u
}
uris "${base[@]}" >"$work/base"
# The package list of install-deps.sh in a mode (its CLI_PACKAGES ... fi block, evaluated).
list() {
  sed -n '/^CLI_PACKAGES=/,/^fi$/p' scripts/install-deps.sh |
    sed "s/^if \[\[ \$mode == all \]\]; then/if $1; then/; s/command -v npm >\/dev\/null || //; s/\[\[ -f \/usr\/include\/node\/node_api.h \]\] || //" >"$work/list.sh"
  echo 'echo "${PACKAGES[@]}"' >>"$work/list.sh"
  bash "$work/list.sh"
}
measure() {
  local label=$1
  shift
  uris "${base[@]}" "$@" | comm -23 - "$work/base" |
    awk -v label="$label" '{ n++; bytes += $2 } END { printf "%-46s %4d packages, %7.1f MiB to download\n", label, n, bytes / 1048576 }'
}
echo "a fresh Debian 12: ${#base[@]} packages (Priority: required, and apt)"
measure "install-deps.sh cli (the example, now):" $(list false)
measure "install-deps.sh (the example before; test):" $(list true)
for d in editors/vscode tests/e2e/vscode_editor tests/sarif; do
  [[ -d $d/node_modules ]] && printf '  then npm ci in %-28s %s on disk\n' "$d:" "$(du -sh "$d/node_modules" | cut -f1)"
done

#!/usr/bin/env bash
# The Debian package CPack builds: its metadata, its files, and the tool installed from it
# (unpacked into a root of its own with dpkg -x, so the test changes nothing on the machine):
# check, explain, the man page, the completions, and doc links into the installed docs.
#   deb_test.sh BUILD_DIR
# Exit 77 (skipped, with the reason) without dpkg-deb or dpkg-shlibdeps, unless TILESIGHT_REQUIRE_E2E=1.
set -euo pipefail
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  if ! command -v "$tool" >/dev/null; then
    [[ "${TILESIGHT_REQUIRE_E2E:-}" == 1 ]] && { echo "FAIL: $tool is missing (TILESIGHT_REQUIRE_E2E=1)"; exit 1; }
    echo "SKIP: $tool is missing (apt-get install dpkg-dev)"
    exit 77
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cpack --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/out/tilesight_*.deb)
echo "built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
info=$(dpkg-deb --info "$deb")
grep -q '^ Package: tilesight$' <<<"$info" || fail "no Package: tilesight in: $info"
depends=$(sed -n 's/^ Depends: //p' <<<"$info")
echo "Depends: $depends"
for lib in libc6 libstdc++6; do grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib"; done
files=$(dpkg-deb --contents "$deb" | awk '{print $6}')
for f in ./usr/bin/tilesight ./usr/share/man/man1/tilesight.1 ./usr/share/bash-completion/completions/tilesight \
         ./usr/share/zsh/vendor-completions/_tilesight ./usr/share/doc/tilesight/checks.md \
         ./usr/share/doc/tilesight/user-guide.md ./usr/share/tilesight/python/tilesight_cutile/__main__.py \
         ./usr/share/tilesight/python/tilesight_cutile/record_site/sitecustomize.py; do
  grep -qx -- "$f" <<<"$files" || fail "the package lacks $f"
done

root="$work/root"
dpkg -x "$deb" "$root"
bin="$root/usr/bin/tilesight"
"$bin" --version | grep -q '^tilesight ' || fail "--version"
status=0
"$bin" check "$src/examples/gemm_with_bugs.tile" >"$work/check.txt" 2>&1 || status=$?
[[ $status -eq 1 ]] || fail "check of an example with errors exited $status"
grep -q '\[syntax\]' "$work/check.txt" || fail "check printed no diagnostic"
# The installed tilesight finds its Python package: a .py file's check gets as far as cuTile.
printf 'import cuda.tile as ct\n# tilesight: launch grid=(1,) x=f32[16]\n@ct.kernel\ndef k(x):\n    pass\n' >"$work/k.py"
py_status=0
TILESIGHT_PYTHON=/usr/bin/python3 PYTHONPATH= "$bin" check "$work/k.py" >"$work/py.txt" 2>&1 || py_status=$?
if grep -q 'not installed beside' "$work/py.txt"; then fail "the installed tilesight lacks its Python package: $(cat "$work/py.txt")"; fi
[[ $py_status -eq 0 || $py_status -eq 1 || $py_status -eq 2 ]] || fail "check of a .py exited $py_status: $(cat "$work/py.txt")"
"$bin" explain race.unordered | head -1 | grep -q '^## `race.unordered`' || fail "explain"
# Links go to the installed docs, next to the installed executable.
help_uri=$("$bin" check --format=sarif "$src/examples/gemm_with_bugs.tile" | grep -m1 '"helpUri"' || true)
grep -q "file://$root/usr/share/doc/tilesight/checks.md#" <<<"$help_uri" || fail "SARIF helpUri is not the installed docs: $help_uri"
# The bash completion, as bash-completion calls it (its two helpers stubbed when it is not installed).
complete_words() {
  PATH="$root/usr/bin:$PATH" bash -c '
    if [[ -f /usr/share/bash-completion/bash_completion ]]; then source /usr/share/bash-completion/bash_completion
    else
      _init_completion() { words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; }
      _filedir() { :; }
      compopt() { :; }
    fi
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _tilesight; echo "${COMPREPLY[*]}"' _ "$root/usr/share/bash-completion/completions/tilesight" "$@"
}
[[ " $(complete_words tilesight ch) " == *" check "* ]] || fail "completion of a command: $(complete_words tilesight ch)"
[[ " $(complete_words tilesight check --W) " == *" --Werror "* ]] || fail "completion of an option"
[[ " $(complete_words tilesight check --format=s) " == *" sarif "* ]] || fail "completion of a value"
[[ " $(complete_words tilesight explain race.) " == *" race.unordered "* ]] || fail "completion of a code: $(complete_words tilesight explain race.)"
if command -v man >/dev/null; then
  man -l "$root/usr/share/man/man1/tilesight.1" 2>/dev/null | grep -q 'tilesight check' || fail "the man page"
fi
echo "PASS: installed from $(basename "$deb") and used"

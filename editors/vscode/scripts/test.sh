#!/bin/sh
# Checks the VS Code extension without VS Code and without network (after
# `npm ci`): TypeScript type-check, unit tests (the layout finder, the Python
# files' directive test and middleware), TextMate
# grammar tests, and packaging into a .vsix whose contents are checked.
# Run from anywhere: sh editors/vscode/scripts/test.sh
# Exits non-zero on the first failure.
set -eu
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

step "node $(node --version), npm $(npm --version)"
if [ ! -d node_modules ]; then
  step "npm ci (node_modules is missing)"
  npm ci || fail "npm ci"
fi

step "type-check: tsc --noEmit"
npx --no-install tsc -p ./ --noEmit || fail "tsc --noEmit"
echo "ok: no type errors"

step "compile: tsc -p ./"
npx --no-install tsc -p ./ || fail "tsc"

step "unit tests: node --test out/test/*.test.js"
node --test out/test/*.test.js || fail "unit tests"

step "grammar tests: vscode-tmgrammar-test test/grammar/*.tile"
npx --no-install vscode-tmgrammar-test -g syntaxes/tileir.tmLanguage.json 'test/grammar/*.tile' \
  || fail "grammar tests"

step "JSON files parse"
for f in package.json language-configuration.json syntaxes/tileir.tmLanguage.json; do
  node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$f" || fail "$f is not JSON"
  echo "ok: $f"
done

step "package: vsce package"
rm -f tilesight.vsix
npm run --silent package || fail "vsce package"
[ -f tilesight.vsix ] || fail "tilesight.vsix was not written"

step "vsix contents"
node - <<'JS' || fail "vsix contents"
const yauzl = require('yauzl');
yauzl.open('tilesight.vsix', { lazyEntries: true }, (err, zip) => {
  if (err) throw err;
  const names = [];
  zip.on('entry', (e) => { names.push(e.fileName); zip.readEntry(); });
  zip.on('end', () => {
    const need = [
      'extension/package.json',
      'extension/out/extension.js',
      'extension/out/layoutAt.js',
      'extension/out/pythonFiles.js',
      'extension/syntaxes/tileir.tmLanguage.json',
      'extension/language-configuration.json',
      'extension/readme.md',
      'extension/node_modules/vscode-languageclient/package.json',
      'extension/node_modules/vscode-languageclient/lib/node/main.js',
    ];
    const missing = need.filter((n) => !names.some((x) => x.toLowerCase() === n.toLowerCase()));
    const unwanted = names.filter((n) =>
      /^extension\/(src|test|scripts)\//.test(n) || /^extension\/out\/test\//.test(n) ||
      /^extension\/node_modules\/(typescript|@vscode\/vsce|vscode-tmgrammar-test|@types)\//.test(n));
    console.log(`${names.length} files in tilesight.vsix`);
    if (missing.length) { console.error('missing: ' + missing.join(', ')); process.exit(1); }
    if (unwanted.length) { console.error('unwanted: ' + unwanted.slice(0, 10).join(', ')); process.exit(1); }
    console.log('ok: extension code, grammar, language configuration, README and vscode-languageclient are in; sources, tests and dev dependencies are not');
  });
  zip.readEntry();
});
JS
ls -l tilesight.vsix

step "PASS: type-check, unit tests, grammar tests, packaging"

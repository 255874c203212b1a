// Unit tests for src/pythonFiles.ts; run under plain Node (node --test).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mentionsTilesight, pythonFeaturesElsewhere } from '../pythonFiles';

test('a # comment naming tilesight asks for it, as the server reads it (a misspelt directive too)', () => {
  assert.ok(mentionsTilesight('import cuda.tile as ct\n# tilesight: launch grid=(4,) x=f32[8]\n@ct.kernel\n'));
  assert.ok(mentionsTilesight('x = 1  #tilesight:launch grid=1'));
  assert.ok(mentionsTilesight('    # tilesight:\tlaunch grid=(2, 3)'));
  assert.ok(!mentionsTilesight('import cuda.tile as ct\n\ndef f():\n    pass\n'));
  assert.ok(!mentionsTilesight('s = "tilesight: launch"  # not in the comment'));
  assert.ok(mentionsTilesight('# Tilesight: lanch grid=(4,)'));  // misspelt: the server says so
  assert.ok(!mentionsTilesight('# a comment\ntilesight: launch grid=1'), 'the # must be on the same line');
  assert.ok(mentionsTilesight('# tilesight: run grid=1'));  // not a directive: the server says so
});

// The features the user's Python language server owns (docs/cutile.md "In the editor").
const ELSEWHERE = [
  'provideCompletionItem',
  'provideDocumentSemanticTokens',
  'provideDocumentSemanticTokensEdits',
  'provideDocumentRangeSemanticTokens',
  'provideDocumentSymbols',
  'provideFoldingRanges',
  'provideInlayHints',
  'provideDefinition',
  'provideReferences',
  'provideDocumentHighlights',
  'prepareRename',
  'provideRenameEdits',
  'provideSignatureHelp',
  'provideCodeActions',
];

type Hook = (...args: unknown[]) => unknown;

/** Calls a middleware hook with `document`, placeholders, and a `next` that records its call. */
function call(name: string, languageId: string): { result: unknown; asked: unknown[] | undefined } {
  const hook = (pythonFeaturesElsewhere as Record<string, Hook>)[name];
  const rest = Array.from({ length: hook.length - 2 }, (_, i) => `arg${i}`);
  let asked: unknown[] | undefined;
  const next = (...args: unknown[]) => {
    asked = args;
    return 'from the server';
  };
  const document = { languageId };
  return { result: hook(document, ...rest, next), asked };
}

test('on a Python document the features of the Python language server never reach tilesight', () => {
  assert.deepEqual(Object.keys(pythonFeaturesElsewhere).sort(), [...ELSEWHERE].sort());
  for (const name of ELSEWHERE) {
    const { result, asked } = call(name, 'python');
    assert.equal(result, undefined, name);
    assert.equal(asked, undefined, `${name} asked the server`);
  }
});

test('on a Tile IR document every feature asks the server with the same arguments', () => {
  for (const name of ELSEWHERE) {
    const { result, asked } = call(name, 'tileir');
    assert.equal(result, 'from the server', name);
    assert.ok(asked, name);
    assert.deepEqual((asked[0] as { languageId: string }).languageId, 'tileir', name);
    assert.equal(asked.length, (pythonFeaturesElsewhere as Record<string, Hook>)[name].length - 1, name);
  }
});

test("tilesight's own features on Python files are not intercepted", () => {
  for (const name of ['provideHover', 'provideCodeLenses', 'provideDiagnostics', 'executeCommand', 'didOpen', 'didChange']) {
    assert.ok(!(name in pythonFeaturesElsewhere), name);
  }
});

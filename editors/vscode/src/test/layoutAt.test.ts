// Unit tests for src/layoutAt.ts; run under plain Node (node --test).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { layoutAt, LayoutAtResult } from '../layoutAt';

const doc = [
  '// #sA = #layout<(1,1):(0,0)> in a comment is not a definition',
  '#sA = #layout<(64,32):(32,1)>',
  '#div = #layout<zipped_divide(#sA, [8:1, 8:1])>',
  '#smem = #layout<shared(shape=(64,32), mode_shape=(8,8,16,2), mode_strides=(256,2,16,1)), expect = bijective>',
  '#sA = #layout<(8,8):(8,1)>',
  '#late = #layout<#sA>',
  'cuda_tile.module @m {',
  '}',
].join('\n');

function at(line: number, col: number): LayoutAtResult {
  const lines = doc.split('\n');
  let offset = 0;
  for (let i = 0; i < line; i++) offset += lines[i].length + 1;
  const r = layoutAt(doc, offset + col);
  if ('error' in r) assert.fail(r.error);
  return r;
}

test('inside a #layout body', () => {
  const r = at(1, 16);
  assert.equal(r.expanded, '(64,32):(32,1)');
  assert.equal(r.alias, '#sA');
});

test('on the alias of a definition', () => {
  assert.equal(at(1, 1).expanded, '(64,32):(32,1)');
});

test('aliases inside a body are expanded with the definition before them', () => {
  const r = at(2, 20);
  assert.equal(r.written, 'zipped_divide(#sA, [8:1, 8:1])');
  assert.equal(r.expanded, 'zipped_divide((64,32):(32,1), [8:1, 8:1])');
});

test('the cursor on a use inside another layout shows that alias', () => {
  const r = at(2, 30);
  assert.equal(r.alias, '#sA');
  assert.equal(r.expanded, '(64,32):(32,1)');
});

test('the expect claim is left out', () => {
  assert.equal(
    at(3, 20).expanded,
    'shared(shape=(64,32), mode_shape=(8,8,16,2), mode_strides=(256,2,16,1))',
  );
});

test('a redefined alias resolves to the newest definition before the use', () => {
  assert.equal(at(5, 17).expanded, '(8,8):(8,1)');
});

test('outside any layout is an error', () => {
  const r = layoutAt(doc, doc.indexOf('@m'));
  assert.ok('error' in r);
});

test('an unknown alias is left for the CLI to report', () => {
  const text = '#x = #layout<zipped_divide(#nope, [2:1])>';
  const r = layoutAt(text, 20);
  assert.ok(!('error' in r));
  assert.equal((r as LayoutAtResult).expanded, 'zipped_divide(#nope, [2:1])');
});

test('an unclosed #layout still yields its text', () => {
  const text = '#x = #layout<(4,2):(2,1\n';
  const r = layoutAt(text, 15);
  assert.ok(!('error' in r));
  assert.equal((r as LayoutAtResult).expanded, '(4,2):(2,1');
});

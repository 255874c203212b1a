// Finds the layout expression under a position in a Tile IR document, for the
// "Show Layout Picture" command. Pure text work (no VS Code API), so it runs
// under plain Node in the unit tests.
//
// `tilesight layout EXPR` knows no #aliases, so the expression it gets has
// every #alias replaced by the body of its definition (the newest
// `#name = #layout<...>` before the use, as the server resolves them), and
// the `, expect = ...` claim of a definition left out.

export interface LayoutAtResult {
  /** The expression as written between `#layout<` and `>` (claim removed). */
  written: string;
  /** The expression with every alias expanded: what the CLI gets. */
  expanded: string;
  /** The alias the expression belongs to, if any (`#sA`). */
  alias?: string;
}

export interface LayoutAtError {
  error: string;
}

interface LayoutSpan {
  /** Offset of the `#` of `#layout`. */
  start: number;
  /** Offset just past the closing `>`. */
  end: number;
  /** The body between `<` and the matching `>`. */
  body: string;
}

interface AliasDef {
  name: string;
  /** Offset of the definition's `#name`. */
  offset: number;
  layout: LayoutSpan;
}

const ALIAS_CHAR = /[A-Za-z0-9_$.]/;
const MAX_DEPTH = 32;

/** Offsets where `//` comments start, per line, are skipped by blanking. */
function blankComments(text: string): string {
  // Keep offsets: replace comment text by spaces. Strings in Tile IR can
  // hold `//` but never inside a #layout; a string is skipped whole.
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') {
        j += text[j] === '\\' ? 2 : 1;
      }
      j = Math.min(j + 1, text.length);
      out += text.slice(i, j);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      let j = text.indexOf('\n', i);
      if (j < 0) j = text.length;
      out += ' '.repeat(j - i);
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Every `#layout<...>` in the text, with balanced `<>` inside. */
function layoutSpans(text: string): LayoutSpan[] {
  const spans: LayoutSpan[] = [];
  const re = /#layout\s*</g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const open = m.index + m[0].length; // just past '<'
    let depth = 1;
    let i = open;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '<') depth++;
      else if (text[i] === '>') depth--;
    }
    if (depth !== 0) {
      // Unclosed: the span runs to the end of the line, so the cursor still
      // finds it and the CLI reports what is missing.
      let eol = text.indexOf('\n', open);
      if (eol < 0) eol = text.length;
      spans.push({ start: m.index, end: eol, body: text.slice(open, eol) });
      re.lastIndex = eol;
      continue;
    }
    spans.push({ start: m.index, end: i, body: text.slice(open, i - 1) });
    re.lastIndex = i;
  }
  return spans;
}

/** `#name = #layout<...>` definitions, in text order. */
function aliasDefs(text: string, spans: LayoutSpan[]): AliasDef[] {
  const defs: AliasDef[] = [];
  const re = /#([A-Za-z_][A-Za-z0-9_$.]*)\s*=\s*(?=#layout\s*<)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const at = m.index + m[0].length;
    const layout = spans.find((s) => s.start === at);
    if (layout && m[1] !== 'layout') {
      defs.push({ name: m[1], offset: m.index, layout });
    }
  }
  return defs;
}

/** Removes a trailing `, expect = injective|surjective|bijective`. */
export function stripClaim(body: string): string {
  return body.replace(/,\s*expect\s*=\s*[A-Za-z_]*\s*$/, '').trim();
}

/** The alias name (without `#`) whose text covers `offset`, if any. */
function aliasAt(text: string, offset: number): { name: string; start: number } | undefined {
  let s = offset;
  while (s > 0 && ALIAS_CHAR.test(text[s - 1])) s--;
  // The cursor may sit on the '#' itself.
  if (text[s] === '#') s++;
  if (s === 0 || text[s - 1] !== '#') return undefined;
  let e = s;
  while (e < text.length && ALIAS_CHAR.test(text[e])) e++;
  if (e === s || offset < s - 1 || offset > e) return undefined;
  const name = text.slice(s, e);
  if (name === 'layout' || !/^[A-Za-z_]/.test(name)) return undefined;
  return { name, start: s - 1 };
}

/**
 * The definition a use of `name` at `useOffset` refers to: the definition
 * itself when the use is its name, else the newest one that ends before it.
 */
function definitionFor(defs: AliasDef[], name: string, useOffset: number): AliasDef | undefined {
  let best: AliasDef | undefined;
  for (const d of defs) {
    if (d.name !== name) continue;
    if (d.offset === useOffset) return d;
    if (d.layout.end <= useOffset) best = d;
  }
  return best;
}

/**
 * Replaces every #alias in `body` (which sits at `offset`) by its definition,
 * recursively. A use resolves to the newest definition before it.
 */
function expand(body: string, offset: number, defs: AliasDef[], depth: number): string | LayoutAtError {
  if (depth > MAX_DEPTH) {
    return { error: 'layout aliases nest too deeply (a cycle?)' };
  }
  let failure: LayoutAtError | undefined;
  const out = body.replace(/#([A-Za-z_][A-Za-z0-9_$.]*)/g, (whole, name: string) => {
    if (failure) return whole;
    const def = definitionFor(defs, name, offset);
    if (!def) {
      // Leave it: the CLI names the unknown alias and its column.
      return whole;
    }
    const inner = expand(stripClaim(def.layout.body), def.layout.start, defs, depth + 1);
    if (typeof inner !== 'string') {
      failure = inner;
      return whole;
    }
    return inner;
  });
  return failure ?? out;
}

/**
 * The layout expression at `offset`: inside a `#layout<...>`, or on an alias
 * (its definition or a use).
 */
export function layoutAt(rawText: string, offset: number): LayoutAtResult | LayoutAtError {
  const text = blankComments(rawText);
  const spans = layoutSpans(text);
  const defs = aliasDefs(text, spans);

  // An alias under the cursor wins over the #layout it sits in, so that
  // `zipped_divide(#sA, ...)` with the cursor on #sA shows #sA.
  const a = aliasAt(text, offset);
  if (a) {
    const def = definitionFor(defs, a.name, a.start);
    if (!def) {
      return { error: `#${a.name} is not defined as a #layout before this line` };
    }
    const written = stripClaim(def.layout.body);
    const expanded = expand(written, def.layout.start, defs, 0);
    if (typeof expanded !== 'string') return expanded;
    return { written, expanded, alias: `#${a.name}` };
  }

  const span = spans.find((s) => offset >= s.start && offset <= s.end);
  if (!span) {
    return { error: 'the cursor is not on a #layout<...> or a layout alias' };
  }
  const written = stripClaim(span.body);
  if (written === '') {
    return { error: 'the #layout<...> under the cursor is empty' };
  }
  const expanded = expand(written, span.start, defs, 0);
  if (typeof expanded !== 'string') return expanded;
  const def = defs.find((d) => d.layout === span);
  return { written, expanded, alias: def ? `#${def.name}` : undefined };
}

// cuTile Python files (docs/cutile.md "In the editor"). The server compiles a
// .py file's `# tilesight: launch` directives with the user's cuTile and
// answers only for its own features there: diagnostics, hover on a
// ct.load/ct.store line and the Run lenses. Every other feature of a Python
// file belongs to the user's Python language server (Pylance, pyright), so
// the middleware below answers those itself, without asking tilesight.
//
// No `vscode` import at run time (types only): the unit tests run this
// module under plain Node.
import type { TextDocument } from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';

export const PYTHON = 'python';

/**
 * Whether `text` asks for tilesight: a `#` comment that names it in any
 * spelling (a launch directive, or a misspelt one, which the server reports),
 * as the server decides (server/lsp/cutile_compile.cpp mentionsTilesight), so
 * the extension starts the server exactly for the files the server would
 * compile.
 */
export function mentionsTilesight(text: string): boolean {
  return /#[^\n]*tilesight/i.test(text);
}

function onPython(document: Pick<TextDocument, 'languageId'>): boolean {
  return document.languageId === PYTHON;
}

/**
 * The client's middleware for the features tilesight leaves to the Python
 * language server: on a Python document each answers `undefined` without a
 * request; on any other document it asks the server as usual. Hover, code
 * lenses, diagnostics and commands are not here: they reach the server.
 */
export const pythonFeaturesElsewhere: Middleware = {
  provideCompletionItem: (doc, pos, context, token, next) =>
    onPython(doc) ? undefined : next(doc, pos, context, token),
  provideDocumentSemanticTokens: (doc, token, next) => (onPython(doc) ? undefined : next(doc, token)),
  provideDocumentSemanticTokensEdits: (doc, previous, token, next) =>
    onPython(doc) ? undefined : next(doc, previous, token),
  provideDocumentRangeSemanticTokens: (doc, range, token, next) =>
    onPython(doc) ? undefined : next(doc, range, token),
  provideDocumentSymbols: (doc, token, next) => (onPython(doc) ? undefined : next(doc, token)),
  provideFoldingRanges: (doc, context, token, next) => (onPython(doc) ? undefined : next(doc, context, token)),
  provideInlayHints: (doc, viewPort, token, next) => (onPython(doc) ? undefined : next(doc, viewPort, token)),
  provideDefinition: (doc, pos, token, next) => (onPython(doc) ? undefined : next(doc, pos, token)),
  provideReferences: (doc, pos, options, token, next) => (onPython(doc) ? undefined : next(doc, pos, options, token)),
  provideDocumentHighlights: (doc, pos, token, next) => (onPython(doc) ? undefined : next(doc, pos, token)),
  prepareRename: (doc, pos, token, next) => (onPython(doc) ? undefined : next(doc, pos, token)),
  provideRenameEdits: (doc, pos, newName, token, next) => (onPython(doc) ? undefined : next(doc, pos, newName, token)),
  provideSignatureHelp: (doc, pos, context, token, next) => (onPython(doc) ? undefined : next(doc, pos, context, token)),
  provideCodeActions: (doc, range, context, token, next) => (onPython(doc) ? undefined : next(doc, range, context, token)),
};

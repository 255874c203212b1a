// CUDA Tile IR bytecode (.tilebc, .bytecode, .cutile) opens as its text
// form. An editor cannot hold the binary file as text, so a custom editor
// for those names opens, in its place, a read-only document of the scheme
// `tilesight-bytecode:` with the file's path, whose text the server's
// tilesight.translate gives; the language client sends that document to the
// server like any CUDA Tile IR file, and the server (which reads the file the
// URI names, and the launch file beside it) gives it every feature, with
// each diagnostic also located in the Python source.
import * as vscode from 'vscode';
import { LanguageClient, ExecuteCommandRequest } from 'vscode-languageclient/node';

export const BYTECODE_SCHEME = 'tilesight-bytecode';
export const BYTECODE_VIEW_TYPE = 'tilesight.bytecode';

/** The text of `tilesight-bytecode:` documents, from the server. */
export class BytecodeTextProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly client: () => Promise<LanguageClient | undefined>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const c = await this.client();
    if (!c) throw new Error('tilesight: the language server is not running, so bytecode cannot be shown as text');
    try {
      const result = (await c.sendRequest(ExecuteCommandRequest.type, {
        command: 'tilesight.translate',
        arguments: [{ uri: uri.toString() }],
      })) as { text: string };
      return result.text;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      void vscode.window.showErrorMessage(message);
      throw e;
    }
  }
}

/** Opens bytecode file `file` as its text form, in `column`. */
export async function openBytecodeAsText(file: vscode.Uri, language: string, column?: vscode.ViewColumn): Promise<void> {
  let doc = await vscode.workspace.openTextDocument(file.with({ scheme: BYTECODE_SCHEME }));
  if (doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
  await vscode.window.showTextDocument(doc, { viewColumn: column, preview: false });
}

/**
 * The editor VS Code picks for bytecode file names: it opens the text form
 * and closes itself (a file that is not bytecode is opened as text, with
 * the server's message).
 */
export class BytecodeEditorProvider implements vscode.CustomReadonlyEditorProvider {
  constructor(private readonly language: string) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.html = '<!DOCTYPE html><html><body><p>Opening the text form…</p></body></html>';
    try {
      await openBytecodeAsText(document.uri, this.language, panel.viewColumn);
    } finally {
      panel.dispose();
    }
  }
}

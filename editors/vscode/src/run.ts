// Running entries from VS Code. The server's `tilesight.run` command does
// the work (it starts `tilesight run` and answers with a markdown report);
// this module asks for it from the code lenses and "tilesight: Run Entry…",
// shows a status-bar item with a cancel button while it runs, and the report
// in a webview beside the editor. Nothing runs unless the user asks.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';

/**
 * The argument of the server's tilesight.run command: an entry of a Tile IR
 * file, or the launch directive at `line` (1-based) of a cuTile Python file.
 */
export interface RunArgs {
  uri: string;
  entry?: string;
  line?: number;
  device?: string;
  sanitize?: boolean;
}

interface RunResult {
  entry: string;
  device: string;
  sanitize: boolean;
  report: string;
}

interface Device {
  id: string;
  name: string;
  backend: string;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class RunUi implements vscode.Disposable {
  private readonly status: vscode.StatusBarItem;
  private readonly running = new Map<string, { cancel: vscode.CancellationTokenSource; what: string }>();
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly client: () => LanguageClient | undefined,
    private readonly output: vscode.OutputChannel,
  ) {
    this.status = vscode.window.createStatusBarItem('tilesight.run', vscode.StatusBarAlignment.Left, 100);
    this.status.name = 'tilesight run';
    this.status.command = 'tilesight.stopRun';
  }

  dispose(): void {
    this.cancel();
    this.status.dispose();
    this.panel?.dispose();
  }

  /** Runs as the server's tilesight.run; shows the report, or why not. */
  async run(args: RunArgs): Promise<RunResult | undefined> {
    const c = this.client();
    if (!c) {
      void vscode.window.showErrorMessage('tilesight: the language server is not running.');
      return undefined;
    }
    if (this.running.has(args.uri)) {
      void vscode.window.showInformationMessage(
        `tilesight: ${this.running.get(args.uri)?.what} is still going; cancel it first (the status bar).`,
      );
      return undefined;
    }
    const cancel = new vscode.CancellationTokenSource();
    const target = args.entry ?? (args.line !== undefined ? `the launch at line ${args.line}` : 'the entry');
    const what = `${args.sanitize ? 'sanitizing' : 'running'} ${target} on ${args.device ?? 'its device'}`;
    this.running.set(args.uri, { cancel, what });
    this.showStatus();
    try {
      const result = (await c.sendRequest(
        ExecuteCommandRequest.type,
        { command: 'tilesight.run', arguments: [args] },
        cancel.token,
      )) as RunResult;
      await this.showReport(result);
      return result;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.output.appendLine(`tilesight.run ${JSON.stringify(args)}: ${message}`);
      if (cancel.token.isCancellationRequested) void vscode.window.showInformationMessage('tilesight: the run was cancelled.');
      else void vscode.window.showErrorMessage(`tilesight: ${message}`);
      return undefined;
    } finally {
      this.running.delete(args.uri);
      cancel.dispose();
      this.showStatus();
    }
  }

  /** Cancels every run (the status-bar item's command). */
  cancel(): void {
    for (const r of this.running.values()) r.cancel.cancel();
  }

  /** The devices the server's tilesight.devices lists. */
  async devices(): Promise<Device[]> {
    const c = this.client();
    if (!c) return [];
    const result = (await c.sendRequest(ExecuteCommandRequest.type, {
      command: 'tilesight.devices',
      arguments: [{}],
    })) as { devices?: Device[] };
    return result.devices ?? [];
  }

  private showStatus(): void {
    const runs = [...this.running.values()];
    if (runs.length === 0) {
      this.status.hide();
      return;
    }
    this.status.text = `$(sync~spin) tilesight: ${runs[0].what}${runs.length > 1 ? ` (+${runs.length - 1})` : ''}  $(close)`;
    this.status.tooltip = 'Cancel the run';
    this.status.show();
  }

  private async showReport(result: RunResult): Promise<void> {
    let body: string;
    try {
      body = await vscode.commands.executeCommand<string>('markdown.api.render', result.report);
    } catch {
      body = `<pre>${escapeHtml(result.report)}</pre>`;
    }
    const title = `tilesight run: ${result.entry}`;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        'tilesight.runReport',
        title,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: false, localResourceRoots: [] },
      );
      this.panel.onDidDispose(() => {
        this.panel = undefined;
      });
    } else {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    this.panel.title = title;
    this.panel.webview.html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: var(--vscode-font-family); padding: 8px 16px; }
  table { border-collapse: collapse; margin: 8px 0; }
  th, td { border: 1px solid var(--vscode-editorWidget-border, #8884); padding: 2px 8px; text-align: left; white-space: nowrap; }
  code, pre { font-family: var(--vscode-editor-font-family, monospace); }
</style>
</head>
<body class="tilesight-run-report">
${body}
</body>
</html>`;
  }
}

/** An entry's name as the server takes it: without '@' and quotes. */
function entryName(symbol: string): string {
  const bare = symbol.startsWith('@') ? symbol.slice(1) : symbol;
  return bare.startsWith('"') && bare.endsWith('"') ? bare.slice(1, -1) : bare;
}

/** "tilesight: Run Entry…": an entry of the active file, then a device (or the sanitizer). */
export async function runEntry(ui: RunUi): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'tileir') {
    void vscode.window.showErrorMessage('tilesight: open a CUDA Tile IR file to run one of its entries.');
    return;
  }
  const uri = editor.document.uri;
  const symbols =
    (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri)) ?? [];
  const entries: string[] = [];
  const walk = (list: vscode.DocumentSymbol[]) => {
    for (const s of list) {
      if (s.kind === vscode.SymbolKind.Function) entries.push(entryName(s.name));
      walk(s.children ?? []);
    }
  };
  walk(symbols);
  if (entries.length === 0) {
    void vscode.window.showErrorMessage('tilesight: the file has no entry.');
    return;
  }
  const entry =
    entries.length === 1 ? entries[0] : await vscode.window.showQuickPick(entries, { placeHolder: 'The entry to run' });
  if (!entry) return;
  let devices: Device[] = [];
  try {
    devices = await ui.devices();
  } catch (e) {
    void vscode.window.showErrorMessage(`tilesight: the devices: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  const items: (vscode.QuickPickItem & { device: string; sanitize: boolean })[] = devices.map((d) => ({
    label: `Run on ${d.id}`,
    description: d.name,
    device: d.id,
    sanitize: false,
  }));
  items.push({ label: 'Sanitize', description: 'on the cpu, every access checked', device: 'cpu', sanitize: true });
  const pick = await vscode.window.showQuickPick(items, { placeHolder: `Run ${entry} on` });
  if (!pick) return;
  await ui.run({ uri: uri.toString(), entry, device: pick.device, sanitize: pick.sanitize });
}

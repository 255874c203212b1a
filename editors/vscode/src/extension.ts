// tilesight for VS Code: starts `tilesight lsp` for CUDA Tile IR documents
// and for cuTile Python files with a launch directive (pythonFiles.ts),
// shows layout pictures from `tilesight layout --format=svg`, and runs
// entries through the server (run.ts), and opens CUDA Tile IR bytecode as
// its text form (bytecode.ts).
import * as fs from 'fs';
import * as path from 'path';
import { execFile } from 'child_process';
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
} from 'vscode-languageclient/node';
import { BYTECODE_SCHEME, BYTECODE_VIEW_TYPE, BytecodeEditorProvider, BytecodeTextProvider } from './bytecode';
import { layoutAt } from './layoutAt';
import { PYTHON, mentionsTilesight, pythonFeaturesElsewhere } from './pythonFiles';
import { RunArgs, RunUi, runEntry } from './run';

const LANGUAGE = 'tileir';
const SECTION = 'tilesight';
/** Lines of a .mlir file searched for `cuda_tile.module` (as in editors/nvim). */
const DETECT_LINES = 100;

let client: LanguageClient | undefined;
let outputChannel: vscode.OutputChannel;
let layoutPanel: vscode.WebviewPanel | undefined;
let runUi: RunUi;

// --- finding the executable ----------------------------------------------

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function searchPath(name: string): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  const exts =
    process.platform === 'win32'
      ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').map((e) => e.toLowerCase())]
      : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * `tilesight.server.path`: an absolute path is used as is; a bare name (or
 * the empty default, `tilesight`) is searched on PATH. Returns undefined
 * after telling the user why, with an "Open Settings" action.
 */
function resolveExecutable(): string | undefined {
  const setting = (vscode.workspace.getConfiguration(SECTION).get<string>('server.path') ?? '').trim();
  const wanted = setting === '' ? 'tilesight' : setting;
  let found: string | undefined;
  let why: string;
  if (path.isAbsolute(wanted)) {
    found = isExecutable(wanted) ? wanted : undefined;
    why = `'${wanted}' (tilesight.server.path) does not exist or is not executable.`;
  } else if (wanted.includes('/') || wanted.includes('\\')) {
    why = `tilesight.server.path must be an absolute path or a bare name to look up on PATH, not '${wanted}'.`;
  } else {
    found = searchPath(wanted);
    why =
      `'${wanted}' was not found on PATH. ` +
      'Put tilesight on PATH or set tilesight.server.path to its absolute path.';
  }
  if (found) return found;
  outputChannel.appendLine(`cannot find the tilesight executable: ${why}`);
  void vscode.window
    .showErrorMessage(`tilesight: cannot start the language server. ${why}`, 'Open Settings')
    .then((choice) => {
      if (choice === 'Open Settings') {
        void vscode.commands.executeCommand('workbench.action.openSettings', 'tilesight.server.path');
      }
    });
  return undefined;
}

// --- settings sent to the server -----------------------------------------

/** The server's settings (server/lsp/settings.h); unset ones are left out. */
function serverSettings(scope?: vscode.ConfigurationScope): Record<string, unknown> {
  const cfg = vscode.workspace.getConfiguration(SECTION, scope);
  const out: Record<string, unknown> = {};
  const grid = cfg.get<number[] | null>('grid');
  if (grid !== null && grid !== undefined) out.grid = grid;
  const args = cfg.get<Record<string, number> | null>('args');
  if (args !== null && args !== undefined) out.args = args;
  const checks = cfg.get<string[] | Record<string, boolean>>('checks');
  if (checks !== undefined && checks !== null) out.checks = checks;
  const logLevel = cfg.get<string>('logLevel');
  if (logLevel) out.logLevel = logLevel;
  const debounceMs = cfg.get<number>('debounceMs');
  if (typeof debounceMs === 'number') out.debounceMs = debounceMs;
  const run = cfg.get<string>('run');
  if (run) out.run = run;
  const python = cfg.get<string>('python');
  if (python) out.python = python;
  const cutileIdleMs = cfg.get<number>('cutileIdleMs');
  if (typeof cutileIdleMs === 'number') out.cutileIdleMs = cutileIdleMs;
  return out;
}

// --- the language client ---------------------------------------------------

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  if (client) return;
  const exe = resolveExecutable();
  if (!exe) return;
  // No `transport`: for an executable, vscode-languageclient's stdio
  // transport would append `--stdio`; without it the command runs as written
  // and still talks over stdin/stdout.
  const serverOptions: ServerOptions = { command: exe, args: ['lsp'] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: LANGUAGE, scheme: 'file' },
      { language: LANGUAGE, scheme: 'untitled' },
      { language: LANGUAGE, scheme: BYTECODE_SCHEME },
      // cuTile kernels: the server compiles them from their files.
      { language: PYTHON, scheme: 'file' },
    ],
    initializationOptions: serverSettings(),
    outputChannel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware: {
      ...pythonFeaturesElsewhere,
      // A code lens's tilesight.run goes through the run UI (status bar,
      // cancel, report); the server's other commands go as they are.
      executeCommand: async (command, args, next) =>
        command === 'tilesight.run' ? runUi.run(args[0] as RunArgs) : next(command, args),
      workspace: {
        // The server pulls section `tilesight`; answer with its settings
        // only (not server.path or trace), per scope.
        configuration: (params) => {
          return params.items.map((item) => {
            const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
            if (item.section === undefined || item.section === SECTION) return serverSettings(scope);
            return vscode.workspace.getConfiguration(undefined, scope).get(item.section) ?? null;
          });
        },
      },
    },
  };
  // The client id `tilesight` makes vscode-languageclient read
  // `tilesight.trace.server`.
  const c = new LanguageClient(SECTION, 'tilesight', serverOptions, clientOptions);
  client = c;
  try {
    await c.start();
  } catch (e) {
    client = undefined;
    const msg = e instanceof Error ? e.message : String(e);
    outputChannel.appendLine(`the server did not start: ${msg}`);
    void vscode.window.showErrorMessage(`tilesight: the language server did not start: ${msg}`, 'Open Settings').then(
      (choice) => {
        if (choice === 'Open Settings') {
          void vscode.commands.executeCommand('workbench.action.openSettings', 'tilesight.server.path');
        }
      },
    );
  }
  void context;
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop();
    } catch (e) {
      outputChannel.appendLine(`stopping the server: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/**
 * Whether the document needs the server: Tile IR, or a Python file with a
 * launch directive. Python files without one never start it, so the
 * extension costs a Python user nothing until a directive is written.
 */
function needsServer(doc: vscode.TextDocument): boolean {
  if (doc.languageId === LANGUAGE) return true;
  return doc.languageId === PYTHON && doc.uri.scheme === 'file' && mentionsTilesight(doc.getText());
}

function anyServedDocument(): boolean {
  return vscode.workspace.textDocuments.some(needsServer);
}

// --- .mlir files that hold a cuda_tile.module -------------------------------

async function detectTileMlir(doc: vscode.TextDocument): Promise<void> {
  if (doc.languageId === LANGUAGE || !doc.uri.path.endsWith('.mlir')) return;
  const last = Math.min(doc.lineCount, DETECT_LINES);
  for (let i = 0; i < last; i++) {
    if (/\bcuda_tile\.module\b/.test(doc.lineAt(i).text)) {
      await vscode.languages.setTextDocumentLanguage(doc, LANGUAGE);
      return;
    }
  }
}

// --- Show Layout Picture ----------------------------------------------------

function runLayout(exe: string, expr: string): Promise<{ svg: string } | { error: string }> {
  return new Promise((resolve) => {
    // An argument array and no shell: the expression is never interpreted.
    execFile(
      exe,
      ['layout', '--format=svg', expr],
      { timeout: 20000, maxBuffer: 64 * 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        if (err) {
          const text = String(stderr).trim() || err.message;
          resolve({ error: text });
        } else {
          resolve({ svg: String(stdout) });
        }
      },
    );
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layoutHtml(title: string, expr: string, svg: string): string {
  const data = Buffer.from(svg, 'utf8').toString('base64');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: var(--vscode-editor-font-family, monospace); padding: 8px; }
  code { word-break: break-all; }
  .picture { overflow: auto; background: #ffffff; display: inline-block; }
</style>
</head>
<body>
<p><strong>${escapeHtml(title)}</strong></p>
<p><code>${escapeHtml(expr)}</code></p>
<div class="picture"><img alt="${escapeHtml(title)}" src="data:image/svg+xml;base64,${data}"></div>
</body>
</html>`;
}

async function showLayout(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showErrorMessage('tilesight: no active editor.');
    return;
  }
  const doc = editor.document;
  const found = layoutAt(doc.getText(), doc.offsetAt(editor.selection.active));
  if ('error' in found) {
    void vscode.window.showErrorMessage(`tilesight: ${found.error}.`);
    return;
  }
  const exe = resolveExecutable();
  if (!exe) return;
  const result = await runLayout(exe, found.expanded);
  const title = found.alias ? `Layout ${found.alias}` : 'Layout';
  if ('error' in result) {
    outputChannel.appendLine(`tilesight layout --format=svg '${found.expanded}':\n${result.error}`);
    void vscode.window.showErrorMessage(`tilesight: invalid layout expression: ${result.error}`, {
      modal: false,
    });
    return;
  }
  if (!layoutPanel) {
    layoutPanel = vscode.window.createWebviewPanel(
      'tilesight.layout',
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: false, localResourceRoots: [] },
    );
    layoutPanel.onDidDispose(() => {
      layoutPanel = undefined;
    });
  } else {
    layoutPanel.reveal(vscode.ViewColumn.Beside, true);
  }
  layoutPanel.title = title;
  layoutPanel.webview.html = layoutHtml(title, found.expanded, result.svg);
}

// --- activation -----------------------------------------------------------------

export function activate(context: vscode.ExtensionContext): void {
  outputChannel = vscode.window.createOutputChannel('tilesight');
  context.subscriptions.push(outputChannel);
  runUi = new RunUi(() => client, outputChannel);
  context.subscriptions.push(runUi);

  context.subscriptions.push(
    vscode.commands.registerCommand('tilesight.restartServer', async () => {
      await stopClient();
      await startClient(context);
    }),
    vscode.commands.registerCommand('tilesight.showLayout', showLayout),
    vscode.commands.registerCommand('tilesight.runEntry', () => runEntry(runUi)),
    vscode.commands.registerCommand('tilesight.stopRun', () => runUi.cancel()),
    vscode.workspace.registerTextDocumentContentProvider(
      BYTECODE_SCHEME,
      new BytecodeTextProvider(async () => {
        await startClient(context);
        return client;
      }),
    ),
    vscode.window.registerCustomEditorProvider(BYTECODE_VIEW_TYPE, new BytecodeEditorProvider(LANGUAGE)),
    vscode.workspace.onDidOpenTextDocument(async (doc) => {
      await detectTileMlir(doc);
      if (needsServer(doc)) await startClient(context);
    }),
    // A directive written into an open Python file starts the server when
    // the file is saved (not per keystroke: typing costs nothing).
    vscode.workspace.onDidSaveTextDocument(async (doc) => {
      if (!client && needsServer(doc)) await startClient(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      // Also without a client: after "cannot find the tilesight executable",
      // fixing the path starts the server without a reload.
      if (e.affectsConfiguration('tilesight.server.path') && (client || anyServedDocument())) {
        await stopClient();
        await startClient(context);
        return;
      }
      if (
        client &&
        ['grid', 'args', 'checks', 'logLevel', 'debounceMs', 'run', 'python', 'cutileIdleMs'].some((k) => e.affectsConfiguration(`${SECTION}.${k}`))
      ) {
        // Null settings: the server pulls `tilesight` with
        // workspace/configuration (answered by the middleware above).
        await client.sendNotification('workspace/didChangeConfiguration', { settings: null });
      }
    }),
  );

  for (const doc of vscode.workspace.textDocuments) void detectTileMlir(doc);
  if (anyServedDocument()) void startClient(context);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

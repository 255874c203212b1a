// e2e.vscode_editor: the packaged extension in VS Code itself. code-server is
// VS Code OSS serving its workbench to a browser, with the same Node extension
// host as the desktop app; headless Chromium (playwright-core) is the user.
// Everything is checked on what the workbench shows, against what the
// tilesight command line says about the same files.
//
// Environment (run.sh sets it):
//   TILESIGHT_BINARY   the tilesight executable (put on PATH as `tilesight`)
//   TILESIGHT_VSIX     the packaged extension
//   TILESIGHT_E2E_DIR  an empty scratch directory
//   TILESIGHT_E2E_SHOTS  optional: a directory for the documentation screenshot
//   TILESIGHT_CUTILE_PKG  a folder holding cuda/tile, for the cuTile Python
//                      part (put on PYTHONPATH of code-server); without a
//                      cuTile that imports, that part alone is skipped
//   TILESIGHT_E2E_PYTHON  the interpreter for it (default /usr/bin/python3),
//                      given to the extension as tilesight.python
// Prints `ok: ...` per check; exits 1 with a FAIL line (and a screenshot in
// the scratch directory) at the first failure.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync, execFileSync } = require('child_process');
const { chromium } = require('playwright-core');

const WAIT_MS = 30000;
const binary = need('TILESIGHT_BINARY');
const vsix = need('TILESIGHT_VSIX');
const scratch = need('TILESIGHT_E2E_DIR');
const shots = process.env.TILESIGHT_E2E_SHOTS;
const codeServer = require.resolve('code-server/out/node/entry.js', { paths: [__dirname] });
const dirs = {
  bin: path.join(scratch, 'bin'),
  home: path.join(scratch, 'home'),
  userData: path.join(scratch, 'user-data'),
  extensions: path.join(scratch, 'extensions'),
  workspace: path.join(scratch, 'workspace'),
};
const settingsFile = path.join(dirs.userData, 'User', 'settings.json');
// The workbench's own settings for a quiet, offline start; nothing of ours.
const baseSettings = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'workbench.enableExperiments': false,
  'editor.hover.delay': 200,
};

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

function ok(what) {
  console.log(`ok: ${what}`);
}

function writeSettings(extra) {
  fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
  fs.writeFileSync(settingsFile, JSON.stringify({ ...baseSettings, ...extra }, null, 2));
}

/** The CLI's diagnostics for a workspace file, with VS Code's UTF-16 columns. */
function cliDiagnostics(file, extraArgs = [], env = process.env) {
  const full = path.join(dirs.workspace, file);
  let out;
  try {
    out = execFileSync(binary, ['check', '--format=json', ...extraArgs, full], { encoding: 'utf8', env });
  } catch (e) {
    out = e.stdout; // exit 1: the file has errors on purpose
  }
  const lines = fs.readFileSync(full, 'utf8').split('\n');
  return JSON.parse(out).diagnostics.map((d) => {
    const before = Buffer.from(lines[d.line - 1], 'utf8').subarray(0, d.column - 1).toString('utf8');
    return { severity: d.severity, code: d.code, message: d.message, line: d.line, character: before.length + 1 };
  });
}

const key = (d) => `${d.severity} ${d.line}:${d.character} ${d.message}`;

/** Calls `attempt` until it returns something truthy (returned) or WAIT_MS pass (null). */
async function poll(page, attempt) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const result = await attempt();
    if (result) return result;
    if (Date.now() > deadline) return null;
    await page.waitForTimeout(150);
  }
}

// --- the workbench ---------------------------------------------------------

async function startCodeServer(extraEnv) {
  // VS Code gives extensions the environment of the user's login shell, so
  // `tilesight` goes on PATH the way a user puts it there: in a shell profile.
  fs.writeFileSync(path.join(dirs.home, '.bash_profile'), `export PATH="${dirs.bin}:$PATH"\n`);
  const env = { ...process.env, HOME: dirs.home, SHELL: '/bin/bash', ...extraEnv };
  delete env.TILESIGHT_PYTHON; // the interpreter comes from tilesight.python
  const args = [codeServer, '--auth', 'none', '--bind-addr', '127.0.0.1:0', '--disable-telemetry',
    '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
    '--config', path.join(scratch, 'code-server.yaml'), dirs.workspace];
  fs.writeFileSync(path.join(scratch, 'code-server.yaml'), 'cert: false\n');
  const proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = fs.createWriteStream(path.join(scratch, 'code-server.log'));
  proc.stderr.pipe(log);
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`code-server did not start:\n${seen}`)), WAIT_MS);
    proc.stdout.on('data', (chunk) => {
      log.write(chunk);
      seen += chunk;
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', (code) => reject(new Error(`code-server exited with ${code}:\n${seen}`)));
  });
  return { proc, url };
}

async function quickOpen(page, file) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ timeout: WAIT_MS });
  await input.fill(file);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: file }).first().waitFor({ timeout: WAIT_MS });
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: file }).waitFor({ timeout: WAIT_MS });
}

async function goTo(page, line, character) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ timeout: WAIT_MS });
  await input.fill(`:${line}:${character}`); // Go to Line is quick access with the prefix `:`
  await page.keyboard.press('Enter');
  await page.locator('#status\\.editor\\.selection', { hasText: `Ln ${line}, Col ${character}` })
    .waitFor({ timeout: WAIT_MS });
}

async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ timeout: WAIT_MS });
  await input.fill(`>${title}`);
  // A click on the row, not Enter: Enter takes whichever row is highlighted.
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click({ timeout: WAIT_MS });
}

/**
 * Changes the user settings as a user does: in VS Code's settings.json
 * editor, saved, then closed (the kernel's editor comes back).
 */
async function editSettings(page, extra) {
  await runCommand(page, 'Preferences: Open User Settings (JSON)');
  const editor = '.monaco-editor[data-uri$="/User/settings.json"]';
  await page.locator(`${editor} .view-lines`).click({ timeout: WAIT_MS });
  // The keys must reach settings.json, not the kernel's editor that had the
  // focus a moment ago: wait until Monaco says this editor has it.
  await page.locator(`${editor}.focused`).waitFor({ timeout: WAIT_MS });
  await page.keyboard.press('Control+A');
  // A paste, so that no bracket or quote is auto-closed and nothing re-indented.
  const text = JSON.stringify({ ...baseSettings, ...extra }, null, 2);
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('Control+V');
  await page.keyboard.press('Control+S');
  // Saved, and what was saved is what was pasted: nothing went elsewhere.
  if (!(await poll(page, async () => fs.readFileSync(settingsFile, 'utf8') === text))) {
    throw new Error(`settings.json was not saved as pasted:\n${text}`);
  }
  await page.keyboard.press('Control+W');
  await page.locator('.tab', { hasText: 'settings.json' }).waitFor({ state: 'detached', timeout: WAIT_MS });
}

/** The Problems panel's rows, per file: [{severity, message, line, character, source}] (source: what follows "generated by"). */
async function problems(page) {
  // In the list's order (data-index), not the DOM's: the list reuses and
  // appends row elements as files come and go.
  const labels = await page.locator('.markers-panel .monaco-list-row').evaluateAll((rows) => rows
    .map((r) => ({ index: Number(r.getAttribute('data-index')), label: r.getAttribute('aria-label') || '' }))
    .sort((x, y) => x.index - y.index)
    .map((r) => r.label));
  const byFile = {};
  let file = null;
  for (const label of labels) {
    const header = /problems? in file (.+) of folder/.exec(label);
    if (header) {
      file = header[1];
      byFile[file] = [];
      continue;
    }
    // A diagnostic with related information says how many places it names.
    const m = /^(Error|Warning|Info): ([\s\S]*) at line (\d+) and character (\d+)\.(?: This problem has references to \d+ locations?\.)? generated by ([\s\S]*)$/
      .exec(label);
    if (m && file) {
      byFile[file].push({ severity: m[1].toLowerCase(), message: m[2], line: +m[3], character: +m[4], source: m[5] });
    }
  }
  return byFile;
}

/** Waits until the Problems panel lists exactly `want` for `file`. */
async function expectProblems(page, file, want, what) {
  const wanted = want.map(key).sort();
  let got = [];
  const same = await poll(page, async () => {
    got = ((await problems(page))[file] || []).map(key).sort();
    return JSON.stringify(got) === JSON.stringify(wanted);
  });
  if (same) {
    ok(`${what}: ${wanted.length} diagnostic(s) in ${file}, as \`tilesight check\` reports them`);
    return;
  }
  throw new Error(`${what}: Problems for ${file}\n  want ${JSON.stringify(wanted)}\n  got  ${JSON.stringify(got)}`);
}

/** Hovers the first token whose text is exactly `text`; returns the hover. */
async function hoverToken(page, text, mustContain) {
  const token = page.locator('.monaco-editor .view-lines span span').filter({ hasText: new RegExp(`^${text}$`) });
  const hover = page.locator('.monaco-hover-content').filter({ hasText: mustContain }).first();
  // A hover request that the editor drops (the mouse arrived while the last
  // hover was still closing, on a loaded machine) is asked again, as a user
  // would move the mouse off and back; the total wait stays WAIT_MS.
  const tries = 3;
  for (let i = 1; ; i++) {
    await page.mouse.move(0, 0);
    await token.first().hover();
    try {
      await hover.waitFor({ timeout: WAIT_MS / tries });
      return hover;
    } catch (e) {
      if (i === tries) throw e;
    }
  }
}

/** The rows of a rendered markdown table, as arrays of cell texts. */
async function tableRows(hover) {
  return hover.locator('table tr').evaluateAll((rows) =>
    rows.map((r) => Array.from(r.querySelectorAll('th,td')).map((c) => c.textContent.trim())));
}

// --- the checks ----------------------------------------------------------------

async function checkLanguageAndDiagnostics(page) {
  await page.locator('#status\\.editor\\.mode', { hasText: 'CUDA Tile IR' }).waitFor({ timeout: WAIT_MS });
  ok('kernel.tile opens as CUDA Tile IR');
  await page.keyboard.press('Control+Shift+M');
  await expectProblems(page, 'kernel.tile', cliDiagnostics('kernel.tile'),
    'diagnostics from the server that the emptied path found on PATH');
}

async function checkLayoutHover(page) {
  const hover = await hoverToken(page, '#sA', 'bijective');
  const facts = JSON.parse(execFileSync(binary, ['layout', '--format=json', '(4,2):(2,1)'], { encoding: 'utf8' }));
  const rows = await tableRows(hover);
  // CuTe's grid: a header of column indices, then one row per mode-0 index.
  const [m, n] = facts.shape;
  if (rows.length !== m + 1) throw new Error(`hover table has ${rows.length} rows, want ${m + 1}: ${JSON.stringify(rows)}`);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const cell = rows[i + 1][j + 1];
      if (cell !== String(facts.offsets[i + m * j])) {
        throw new Error(`hover table (${i},${j}) is ${cell}, want ${facts.offsets[i + m * j]}: ${JSON.stringify(rows)}`);
      }
    }
  }
  ok(`hover on #sA shows its ${m}x${n} table of offsets, equal to \`tilesight layout --format=json\``);
  if (shots) {
    fs.mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, 'vscode.png') });
    ok(`screenshot ${path.join(shots, 'vscode.png')}`);
  }
}

async function checkTypeHover(page) {
  const hover = await hoverToken(page, 'tensor_view', 'strides');
  const text = await hover.textContent();
  const rows = await tableRows(hover);
  if (!/\(8,8\):\(8,1\)/.test(text) || rows.length < 2) {
    throw new Error(`tensor_view hover lacks its layout or table: ${text}`);
  }
  ok(`hover on a tensor_view type shows its layout (8,8):(8,1) and a ${rows.length - 1}-row table`);
}

async function checkTyping(page, before) {
  // `tile<3xi32>` on line 9 becomes `tile<4xi32>`: its error goes away.
  const line = fs.readFileSync(path.join(dirs.workspace, 'kernel.tile'), 'utf8').split('\n')[8];
  const at = line.indexOf('tile<3') + 'tile<'.length + 1;
  await goTo(page, 9, at);
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.type('4');
  const after = before.filter((d) => d.line !== 9);
  await expectProblems(page, 'kernel.tile', after, 'after typing a fix');
  await page.keyboard.press('Control+Z');
  await expectProblems(page, 'kernel.tile', before, 'after undoing it');
}

/** The kernel editor's text as shown (Monaco renders spaces as no-break spaces). */
async function kernelText(page) {
  const lines = await page.locator('.monaco-editor[data-uri$="kernel.tile"] .view-line').allTextContents();
  return lines.join('\n').replace(/\u00a0/g, ' ');
}

async function checkRename(page) {
  // F2 on the use of %a in make_tensor_view (line 8): the definition in the
  // entry's arguments and the use become %arr; then undone.
  const line = fs.readFileSync(path.join(dirs.workspace, 'kernel.tile'), 'utf8').split('\n')[7];
  await goTo(page, 8, line.indexOf('%a,') + 2);
  await page.keyboard.press('F2');
  // The rename box opens once the server answered prepareRename; its input
  // holds the name, which fill() replaces.
  const input = page.locator('.rename-box .rename-input').first();
  await input.waitFor({ timeout: WAIT_MS });
  await input.fill('%arr');
  await input.press('Enter');
  const renamed = await poll(page, async () => {
    const text = await kernelText(page);
    return text.includes('(%arr: tile<ptr<f32>>') && text.includes('make_tensor_view %arr,');
  });
  if (!renamed) throw new Error(`rename (F2) of %a to %arr did not edit both mentions:\n${await kernelText(page)}`);
  ok('rename (F2) of %a to %arr edits its definition and its use');
  await page.keyboard.press('Control+Z');
  if (!(await poll(page, async () => (await kernelText(page)).includes('(%a: tile<ptr<f32>>')))) {
    throw new Error('undoing the rename did not bring %a back');
  }
}

async function checkSettingsReachServer(page, before) {
  await editSettings(page, { 'tilesight.checks': ['type'] });
  await expectProblems(page, 'kernel.tile', cliDiagnostics('kernel.tile', ['--disable=type']),
    'tilesight.checks = ["type"] (pulled by the server, no restart)');
  await editSettings(page, {});
  await expectProblems(page, 'kernel.tile', before, 'tilesight.checks back to its default');
}

async function checkLayoutPicture(page) {
  await goTo(page, 4, 2);
  await runCommand(page, 'tilesight: Show Layout Picture');
  await page.locator('.tab', { hasText: 'Layout #sA' }).waitFor({ timeout: WAIT_MS });
  // The webview's picture lives in a frame of its own.
  const src = await poll(page, async () => {
    for (const frame of page.frames()) {
      const img = await frame.$('img[alt="Layout #sA"]').catch(() => null);
      const value = img && (await img.getAttribute('src'));
      if (value && value.startsWith('data:image/svg+xml;base64,')) return value;
    }
    return null;
  });
  if (!src) throw new Error('the layout panel has no picture');
  const svg = Buffer.from(src.slice(src.indexOf(',') + 1), 'base64').toString('utf8');
  const cli = execFileSync(binary, ['layout', '--format=svg', '(4,2):(2,1)'], { encoding: 'utf8' });
  if (svg !== cli) throw new Error('the panel\'s picture differs from `tilesight layout --format=svg`');
  ok('Show Layout Picture on #sA opens a panel with the SVG of `tilesight layout --format=svg`');
}

async function checkMlirDetection(page) {
  await quickOpen(page, 'detect.mlir');
  await page.locator('#status\\.editor\\.mode', { hasText: 'CUDA Tile IR' }).waitFor({ timeout: WAIT_MS });
  ok('detect.mlir (a cuda_tile.module on line 3) switches to CUDA Tile IR');
  await expectProblems(page, 'detect.mlir', cliDiagnostics('detect.mlir'), 'diagnostics of the .mlir file');
}

/** Clicks the code lens titled `title` (above the entry). */
async function clickLens(page, title) {
  const lens = page.locator('.codelens-decoration a', { hasText: title }).first();
  await lens.waitFor({ timeout: WAIT_MS });
  await lens.click();
}

/** The run report's tables (rows of cell texts), once the panel shows one of `entry` for `device`. */
async function reportTables(page, device, entry = 'add') {
  await page.locator('.tab', { hasText: `tilesight run: ${entry}` }).waitFor({ timeout: WAIT_MS });
  return poll(page, async () => {
    for (const frame of page.frames()) {
      // A report panel that a newer run replaces detaches its frame while it
      // is read: that frame is skipped and the next poll reads the new one.
      const tables = await (async () => {
        const heading = await frame.$('body.tilesight-run-report h3');
        const text = heading && (await heading.textContent());
        if (!text || !text.includes(`on ${device}`)) return null;
        return frame.$$eval('table', (ts) => ts.map((t) =>
          Array.from(t.querySelectorAll('tr')).map((r) => Array.from(r.querySelectorAll('th,td')).map((c) => c.textContent.trim()))));
      })().catch(() => null);
      if (tables) return tables;
    }
    return null;
  });
}

/** The figures of `tilesight run --format=json` for run.tile on `device`. */
function cliRun(file, device) {
  const args = ['run', path.join(dirs.workspace, file), '--format=json', `--device=${device}`, '--grid=4', '--check',
    '--arg=a=rand:64:f32:1', '--arg=b=rand:64:f32:2', '--arg=c=zeros:64:f32'];
  return JSON.parse(execFileSync(binary, args, { encoding: 'utf8' }));
}

/**
 * The report's output rows against the CLI's: min, max, mean (printed to 6
 * digits); for the outputs named in `racy` (written by racing blocks, whose
 * order decides the values) the dtype only.
 */
function compareOutputs(tables, cli, what, racy = []) {
  const outputs = tables.find((t) => t[0] && t[0][0] === 'output');
  if (!outputs) throw new Error(`${what}: the report has no output table: ${JSON.stringify(tables)}`);
  const header = outputs[0];
  for (const o of cli.outputs) {
    const row = outputs.find((r) => r[0] === o.name);
    if (!row) throw new Error(`${what}: no row for ${o.name}: ${JSON.stringify(outputs)}`);
    if (racy.includes(o.name)) {
      if (row[header.indexOf('dtype')] !== o.dtype) throw new Error(`${what}: ${o.name} is not ${o.dtype}: ${JSON.stringify(row)}`);
      continue;
    }
    for (const k of ['min', 'max', 'mean']) {
      const shown = parseFloat(row[header.indexOf(k)]);
      if (shown !== parseFloat(o[k].toPrecision(6))) {
        throw new Error(`${what}: ${o.name} ${k} is ${row[header.indexOf(k)]} in the report, ${o[k]} from the CLI`);
      }
    }
  }
  return outputs;
}

async function checkRun(page) {
  await quickOpen(page, 'run.tile');
  await clickLens(page, 'Run on cpu');
  const tables = await reportTables(page, 'cpu');
  if (!tables) throw new Error('no run report for the cpu');
  compareOutputs(tables, cliRun('run.tile', 'cpu'), 'the cpu run');
  ok('the "Run on cpu" lens opens a report whose outputs are `tilesight run --format=json`\'s');
  if (shots) {
    await page.screenshot({ path: path.join(shots, 'vscode_run.png') });
    ok(`screenshot ${path.join(shots, 'vscode_run.png')}`);
  }
  const devices = JSON.parse(execFileSync(binary, ['devices', '--format=json'], { encoding: 'utf8' })).devices;
  if (devices.some((d) => d.backend === 'opencl')) {
    await page.locator('.tab', { hasText: 'run.tile' }).first().click();
    await clickLens(page, 'Run on opencl:0');
    const gpu = await reportTables(page, 'opencl:0');
    if (!gpu) throw new Error('no run report for opencl:0');
    const outputs = compareOutputs(gpu, cliRun('run.tile', 'opencl:0'), 'the opencl run');
    if (!outputs[0].includes('max error vs CPU')) throw new Error(`no error column: ${JSON.stringify(outputs[0])}`);
    ok('the "Run on opencl:0" lens runs on PoCL; the report has the error against the CPU reference');
  } else if (process.env.TILESIGHT_REQUIRE_E2E === '1') {
    throw new Error('no OpenCL device for the opencl run (TILESIGHT_REQUIRE_E2E=1)');
  } else {
    console.log('skip: the opencl run (no OpenCL device: install pocl-opencl-icd)');
  }
  // The sanitizer's findings: one block too many reads past the views.
  await quickOpen(page, 'run_bug.tile');
  await clickLens(page, 'Sanitize');
  await page.keyboard.press('Control+Shift+M');
  const finding = await poll(page, async () => {
    const labels = await page.locator('.markers-panel .monaco-list-row').evaluateAll((rows) =>
      rows.map((r) => r.getAttribute('aria-label') || ''));
    return labels.find((l) => l.includes('tile block (4, 0, 0)') && l.includes('generated by tilesight run'));
  });
  if (!finding) throw new Error('no sanitizer finding of source "tilesight run" in the Problems panel');
  ok(`the Sanitize lens puts the sanitizer's finding in the Problems panel: ${finding.slice(0, 90)}...`);
  // A run that never ends: the status-bar item while it runs, and its cancel.
  await quickOpen(page, 'spin.tile');
  await clickLens(page, 'Run on cpu');
  const item = page.locator('.statusbar-item', { hasText: 'tilesight: running spin on cpu' }).first();
  await item.waitFor({ timeout: WAIT_MS });
  ok('a status-bar item shows the run while it runs');
  await item.click();
  await page.locator('.notification-toast', { hasText: 'the run was cancelled' }).waitFor({ timeout: WAIT_MS });
  await item.waitFor({ state: 'detached', timeout: WAIT_MS });
  ok('clicking it cancels the run (the server ends `tilesight run`)');
}

// A cuTile bytecode file of the corpus (the buggy twin argmax_rows_bug1,
// with its launch file and Python source beside it, copied by main()).
const BYTECODE = 'argmax_rows_bug1.argmax_rows.13_3.tilebc';
const CORPUS_BUGS = path.join(__dirname, '..', '..', 'corpus', 'cutile', 'bugs');

async function checkBytecode(page) {
  const full = path.join(dirs.workspace, BYTECODE);
  const bytes = fs.readFileSync(full);
  await quickOpen(page, BYTECODE);
  await page.locator('#status\\.editor\\.mode', { hasText: 'CUDA Tile IR' }).waitFor({ timeout: WAIT_MS });
  const editor = '.monaco-editor[data-uri^="tilesight-bytecode:"]';
  const first = execFileSync(binary, ['translate', full], { encoding: 'utf8' }).split('\n')[0];
  await page.locator(`${editor} .view-line`, { hasText: first.trim() }).first().waitFor({ timeout: WAIT_MS });
  ok(`${BYTECODE} opens as its text form (\`tilesight translate\`'s), as CUDA Tile IR`);
  // Read-only: a key typed gets the editor's refusal, and the text stays.
  await page.locator(`${editor} .view-lines`).click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('x');
  await page.locator('.monaco-editor-overlaymessage', { hasText: 'read-only' }).waitFor({ timeout: WAIT_MS });
  if (await page.locator(`${editor} .view-line`, { hasText: 'xcuda_tile' }).count()) {
    throw new Error('typing changed the text form of the bytecode');
  }
  ok('the text form is read-only');
  const lines = execFileSync(binary, ['translate', full], { encoding: 'utf8' }).split('\n');
  const opLine = lines.findIndex((l) => l.includes('store_view_tko'));
  await goTo(page, opLine + 1, lines[opLine].indexOf('store_view_tko') + 1); // scrolled into view
  const hover = await hoverToken(page, 'store_view_tko', 'store_view_tko');
  ok(`hover on store_view_tko in the text form: ${(await hover.textContent()).slice(0, 60)}...`);
  if (!(await page.locator('.markers-panel').isVisible())) await page.keyboard.press('Control+Shift+M');
  const labels = await poll(page, async () => {
    const all = await page.locator('.markers-panel .monaco-list-row').evaluateAll((rows) =>
      rows.map((r) => r.getAttribute('aria-label') || ''));
    const race = all.find((l) => l.includes('both write') && l.includes('generated by tilesight'));
    const source = all.find((l) => l.includes('the source of this op') && l.includes('argmax_rows_bug1.py'));
    return race && source ? [race, source] : null;
  });
  if (!labels) throw new Error('no race diagnostic with its Python line in the Problems panel');
  ok(`the bug's diagnostic (the launch file's grid): ${labels[0].slice(0, 80)}...`);
  ok(`its related information names the Python line: ${labels[1]}`);
  if (!fs.readFileSync(full).equals(bytes)) throw new Error('the bytecode file changed');
  ok('the bytecode file is untouched');
}

// A cuTile kernel with a launch directive and a seeded race (the RACE kernel
// of tests/cutile/cli_session.py): every block stores its rows' argmax at
// the same index. Its lines (1-based):
const CUTILE_FILE = 'race.py';
const CUTILE_LINES = { directive: 4, load: 8, store: 9 };
const cutilePython = process.env.TILESIGHT_E2E_PYTHON || '/usr/bin/python3';

/** The environment with cuTile (TILESIGHT_CUTILE_PKG) first on PYTHONPATH. */
function cutileEnv() {
  const pkg = process.env.TILESIGHT_CUTILE_PKG;
  const rest = process.env.PYTHONPATH;
  return { ...process.env, PYTHONPATH: rest ? `${pkg}${path.delimiter}${rest}` : pkg };
}

/** Why the cuTile part cannot run here, or null when cuda.tile imports. */
function cutileMissing() {
  if (!process.env.TILESIGHT_CUTILE_PKG) {
    return 'TILESIGHT_CUTILE_PKG is not set (ctest sets it; the fixture cutile.build builds cuTile)';
  }
  const r = spawnSync(cutilePython, ['-c', 'import cuda.tile'], { env: cutileEnv(), encoding: 'utf8' });
  if (r.status === 0) return null;
  const why = (r.error ? r.error.message : r.stderr).trim().split('\n').pop();
  return `cuda.tile does not import in ${cutilePython} with PYTHONPATH=${process.env.TILESIGHT_CUTILE_PKG}: ${why}`;
}

/** `tilesight run --format=json` of the directive's launch, as the lens runs it. */
function cliRunPython() {
  const args = ['run', path.join(dirs.workspace, CUTILE_FILE), '--format=json', '--line', String(CUTILE_LINES.directive),
    '--inputs=random', '--device', 'cpu', '--python', cutilePython];
  return JSON.parse(execFileSync(binary, args, { encoding: 'utf8', env: cutileEnv() }));
}

/**
 * Runs `fn` with the Problems panel open and filtered to `file` (a name in
 * the filter shows that file's problems): the panel's list draws only the
 * rows in view, and the file's may come after every other file's.
 */
async function withProblemsOf(page, file, fn) {
  if (!(await page.locator('.markers-panel').isVisible())) await page.keyboard.press('Control+Shift+M');
  const filter = page.getByPlaceholder(/^Filter \(e\.g\. text/);
  await filter.fill(file);
  try {
    return await fn();
  } finally {
    await filter.fill('');
  }
}

async function checkCutilePython(page) {
  await quickOpen(page, CUTILE_FILE);
  await page.locator('#status\\.editor\\.mode', { hasText: 'Python' }).waitFor({ timeout: WAIT_MS });
  // The server compiles the file with the interpreter of tilesight.python
  // (the workspace settings; code-server's environment has no
  // TILESIGHT_PYTHON) and the cuTile on its PYTHONPATH.
  const want = cliDiagnostics(CUTILE_FILE, [], { ...cutileEnv(), TILESIGHT_PYTHON: cutilePython });
  if (!want.some((d) => d.code === 'race.unordered' && d.line === CUTILE_LINES.store)) {
    throw new Error(`\`tilesight check ${CUTILE_FILE}\` has no race at line ${CUTILE_LINES.store}: ${JSON.stringify(want)}`);
  }
  await withProblemsOf(page, CUTILE_FILE, () => expectProblems(page, CUTILE_FILE, want, 'the cuTile file compiled with tilesight.python'));
  ok(`the race is in the Problems panel at the store's line ${CUTILE_LINES.store}`);

  // Hover (Show Hover, Ctrl+K Ctrl+I) on the ct.load line, in the editor
  // (its tab gives it the focus back from the panel).
  await page.locator('.tab', { hasText: CUTILE_FILE }).first().click();
  const text = fs.readFileSync(path.join(dirs.workspace, CUTILE_FILE), 'utf8').split('\n');
  await goTo(page, CUTILE_LINES.load, text[CUTILE_LINES.load - 1].indexOf('ct.load') + 4);
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
  const hover = page.locator('.monaco-hover-content').filter({ hasText: 'the element offset each tile starts at' }).first();
  await hover.waitFor({ timeout: WAIT_MS });
  const shown = await hover.textContent();
  // The x view is 32x128 in 8x128 tiles: 4x1 tiles, the last at element 3*8*128.
  for (const want of ['index space 4x1', '(3,0)', '3072']) {
    if (!shown.includes(want)) throw new Error(`the hover on the ct.load line lacks "${want}": ${shown}`);
  }
  ok(`hover on the ct.load line: the view's 4x1 tile grid and the offset each tile starts at`);
  await page.keyboard.press('Escape');

  // The directive's "Run on cpu" lens: the report of the launch with random inputs.
  await clickLens(page, 'Run on cpu');
  const tables = await reportTables(page, 'cpu', 'argmax_rows');
  if (!tables) throw new Error(`no run report for ${CUTILE_FILE}`);
  // idx is what the race writes: its values depend on the blocks' order.
  compareOutputs(tables, cliRunPython(), 'the cuTile run', ['idx']);
  ok(`the directive's "Run on cpu" lens opens a report of the launch: x as \`tilesight run ${CUTILE_FILE} --line ` +
    `${CUTILE_LINES.directive}\` makes it, and the raced idx`);

  // Sanitize: the race found by the run, in the Problems panel at the store's line.
  await page.locator('.tab', { hasText: CUTILE_FILE }).first().click();
  await clickLens(page, 'Sanitize');
  const finding = await withProblemsOf(page, CUTILE_FILE, () => poll(page, async () => ((await problems(page))[CUTILE_FILE] || [])
    .find((d) => d.line === CUTILE_LINES.store && d.source.startsWith('tilesight run'))));
  if (!finding) {
    throw new Error(`no finding of source "tilesight run" at line ${CUTILE_LINES.store} of ${CUTILE_FILE} after Sanitize: ` +
      JSON.stringify((await problems(page))[CUTILE_FILE]));
  }
  ok(`the Sanitize lens puts the race the run found in the Problems panel at line ${CUTILE_LINES.store}: ` +
    `${finding.message.slice(0, 70)}...`);
}

async function checkMissingServer(page) {
  // settings.json names a tilesight that does not exist (main() wrote it).
  await quickOpen(page, 'kernel.tile');
  const toast = page.locator('.notification-toast', { hasText: 'cannot start the language server' });
  await toast.waitFor({ timeout: WAIT_MS });
  ok('a server.path that does not exist: an error notification that says why');
  await toast.locator('.monaco-button', { hasText: 'Open Settings' }).first().click();
  const search = page.locator('.settings-editor .suggest-input-container .view-lines');
  await search.filter({ hasText: 'tilesight.server.path' }).waitFor({ timeout: WAIT_MS });
  ok('its Open Settings button opens the settings at tilesight.server.path');
  await page.keyboard.press('Control+W');
  // The README's other way: leave the path empty and put tilesight on PATH.
  await editSettings(page, {});
  await page.locator('.tab.active', { hasText: 'kernel.tile' }).waitFor({ timeout: WAIT_MS });
  ok('tilesight.server.path emptied in settings.json (tilesight is on PATH); no reload');
}

// --- main ------------------------------------------------------------------

async function main() {
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  fs.symlinkSync(path.resolve(binary), path.join(dirs.bin, 'tilesight'));
  for (const f of fs.readdirSync(path.join(__dirname, 'workspace'))) {
    fs.copyFileSync(path.join(__dirname, 'workspace', f), path.join(dirs.workspace, f));
  }
  for (const f of [BYTECODE, 'argmax_rows_bug1.argmax_rows.launch.json', 'argmax_rows_bug1.py']) {
    fs.copyFileSync(path.join(CORPUS_BUGS, f), path.join(dirs.workspace, f));
  }
  // The cuTile kernel with a seeded race that the command-line and server tests use too.
  fs.copyFileSync(path.join(__dirname, '..', '..', 'cutile', 'race.py'), path.join(dirs.workspace, 'race.py'));
  writeSettings({ 'tilesight.server.path': '/nonexistent/tilesight' });
  const cutileWhy = cutileMissing();
  let cutileServerEnv = {};
  if (cutileWhy) {
    if (process.env.TILESIGHT_REQUIRE_CUTILE === '1') throw new Error(`${cutileWhy} (TILESIGHT_REQUIRE_CUTILE=1)`);
    console.log(`skip: the cuTile Python part (${cutileWhy})`);
  } else {
    // As a user sets it: the interpreter in the workspace settings, cuTile
    // importable from the editor's environment.
    fs.mkdirSync(path.join(dirs.workspace, '.vscode'));
    fs.writeFileSync(path.join(dirs.workspace, '.vscode', 'settings.json'),
      JSON.stringify({ 'tilesight.python': cutilePython }, null, 2));
    cutileServerEnv = { PYTHONPATH: cutileEnv().PYTHONPATH };
  }

  // As the README says: `code --install-extension tilesight.vsix`.
  const install = spawnSync(process.execPath, [codeServer, '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions, '--install-extension', vsix], { encoding: 'utf8' });
  if (install.status !== 0 || !/successfully installed/.test(install.stdout)) {
    throw new Error(`--install-extension failed:\n${install.stdout}${install.stderr}`);
  }
  ok('code-server --install-extension tilesight.vsix');

  const { proc, url } = await startCodeServer(cutileServerEnv);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  const page = await context.newPage();
  try {
    await page.goto(`${url}/?folder=${encodeURIComponent(dirs.workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: WAIT_MS });
    ok(`VS Code ${require('code-server/lib/vscode/package.json').version} (code-server) is up`);
    await checkMissingServer(page);
    await checkLanguageAndDiagnostics(page);
    const before = cliDiagnostics('kernel.tile');
    await checkLayoutHover(page);
    await checkTypeHover(page);
    await checkTyping(page, before);
    await checkRename(page);
    await checkSettingsReachServer(page, before);
    await checkLayoutPicture(page);
    await checkMlirDetection(page);
    await checkRun(page);
    await checkBytecode(page);
    if (!cutileWhy) await checkCutilePython(page);
  } catch (e) {
    const shot = path.join(scratch, 'failure.png');
    await page.screenshot({ path: shot }).catch(() => {});
    throw new Error(`${e.message}\n(screenshot: ${shot}; log: ${path.join(scratch, 'code-server.log')})`);
  } finally {
    await browser.close();
    proc.kill();
  }
  console.log('PASS: VS Code shows tilesight\'s diagnostics, hover tables and layout pictures, and renames; bytecode opens as ' +
    `text${cutileWhy ? '' : '; a cuTile .py file gets its race, hover and Run lens'}`);
}

main().catch((e) => {
  console.log(`FAIL: ${e.message}`);
  process.exit(1);
});

// The VS Code extension in a real VS Code: code-server (VS Code's own server and workbench, the
// same editor in a browser) with the linux-x64 package installed, in Debian's Chromium, driven
// by Playwright as a person would drive it: open files, read the Problems panel, hover, complete,
// type, undo, save, run a command, step through the board panel, start a new game and play it
// by clicks on the board. Nothing puts `ctlpgn` on PATH and no setting names it: the
// extension must find the server it carries. Screenshots of each step are kept in
// CTLPGN_E2E_OUT (default target/vscode-e2e).
//
// With CTLPGN_E2E_HOST=web the same flows run with the extension in code-server's web worker
// extension host, as in VS Code for the Web: the user setting `remote.extensionKind` puts it
// there, CTLPGN_VSIX is then the universal package (no server inside), and the language server
// is the WebAssembly module in a web worker (the workspace survey reads the files through VS
// Code's file system there). The flow of the server binary found is the desktop's only.
//
// Environment: CTLPGN_CODE_SERVER (the folder tests/vscode/install-code-server.sh installed
// into), CTLPGN_VSIX (the linux-x64 package; with CTLPGN_E2E_HOST=web the universal one),
// CTLPGN_BIN (the ctlpgn binary the expectations come from), CHROMIUM (default
// /usr/lib/chromium/chromium, Debian's real binary).
// CTLPGN_RECORD_INITIALIZE=1 writes the initialize request VS Code sent to
// tests/fixtures/initialize/vscode.json.

'use strict';

const assert = require('node:assert');
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');

const { chromium } = require('playwright-core');

const repository = path.resolve(__dirname, '..', '..');
const required = (name) => {
  const value = process.env[name];
  assert.ok(value, `${name} is set`);
  return path.resolve(value);
};
const codeServer = required('CTLPGN_CODE_SERVER');
const vsix = required('CTLPGN_VSIX');
const ctlpgn = required('CTLPGN_BIN');
const browserBinary = process.env.CHROMIUM || '/usr/lib/chromium/chromium';
/** The extension in the web worker extension host (VS Code for the Web), else in code-server's Node one. */
const web = process.env.CTLPGN_E2E_HOST === 'web';
assert.ok(['web', 'node', undefined].includes(process.env.CTLPGN_E2E_HOST), 'CTLPGN_E2E_HOST is web or node');
const shots = path.resolve(process.env.CTLPGN_E2E_OUT || path.join(repository, 'target', web ? 'vscode-e2e-web' : 'vscode-e2e'));
/** A flow of the desktop's only: skipped in the web host, saying why. */
const desktopOnly = (why) => (web ? { skip: why } : {});
const entry = path.join(codeServer, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

// How long one step may wait for the editor before the test fails: a guard, never a pause.
const PATIENCE = 60_000;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctlpgn-vscode-'));
const folders = {
  home: path.join(work, 'home'),
  userData: path.join(work, 'user-data'),
  extensions: path.join(work, 'extensions'),
  workspace: path.join(work, 'games'),
};

// The files the user opens: the end-to-end fixture with two mistakes, a record to format on
// save, and a JavaScript string with the same characters (where VS Code does box them; it
// boxes nothing in plain text).
const ERRORS = fs.readFileSync(path.join(repository, 'tests', 'e2e', 'errors.ctl-pgn'), 'utf8');
const UNFORMATTED = '[Variant "C\'escacs"]\n[Id "Demo-V01"]\n[Annotator "Vidàl, Àngel"]\n\n1.  E7-E13 ,  E21-E15\n2. F8‐F12, F20‐F16:\n*\n';
const CONTROL = 'const moves = "E13×F16 and F8‐F12";\n';
// Both sides ready to castle (handbook §9.8): the King on G1 goes to H6 by its leap or by one of
// several castlings, which the board asks to choose between.
const CASTLE = '[Variant "C\'escacs"]\n[Result "*"]\n\n1. H6-H10, H22-H18\n2. I5-I9, I23-I19\n3. EH4-H8, EH24-H20:\n*\n';
// The example of three mistakes, a reference to a later move (N013), a piece not on its origin
// (K003) and a hex not on the board (C003).
const NEVER_OPENED = fs.readFileSync(path.join(repository, 'examples', 'mistakes.ctl-pgn'), 'utf8');
// Opened from Quick Open and closed again, with ctlpgn.diagnostics.workspace off, then on; the
// second mended on the disk with a record that checks clean.
const CLOSED = ['closed-off.ctl-pgn', 'closed-on.ctl-pgn'];
const CLEAN = fs.readFileSync(path.join(repository, 'examples', 'opening.ctl-pgn'), 'utf8');
// 1,999 corpus games and a record without moves: a large file to play on.
const NEW_RECORD = '[Variant "C\'escacs"]\n[Result "*"]\n\n*\n';
function manyRecords() {
  const folder = path.join(repository, 'testdata', 'corpus', 'valid');
  const games = fs.readdirSync(folder).filter((name) => name.endsWith('.ctl-pgn')).sort().map((name) => fs.readFileSync(path.join(folder, name), 'utf8'));
  const records = [];
  for (let index = 0; index < 1999; index += 1) records.push(games[index % games.length]);
  records.push(NEW_RECORD);
  return records.join('\n');
}

let server;
let browser;
let page;
let shot = 0;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Waits for `condition` to hold (polled), failing with `what` after PATIENCE. */
async function until(what, condition) {
  const started = Date.now();
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() - started > PATIENCE) {
      // What the screen showed when the wait gave up, beside the steps' screenshots.
      if (page) await page.screenshot({ path: path.join(shots, `failed-${what.replace(/[^A-Za-z0-9]+/g, '-')}.png`) }).catch(() => {});
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The steps whose screenshots the docs embed, and their names in docs/images: with
// CTLPGN_DOCS_SHOTS naming a folder (tests/vscode/refresh-screenshots.sh), they are copied there.
const DOCS_SHOTS = { 'board-panel': 'board-panel.png', hover: 'hover.png', 'play-marks': 'playing.png' };

async function screenshot(name) {
  shot += 1;
  const file = path.join(shots, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  const docs = process.env.CTLPGN_DOCS_SHOTS;
  if (docs && DOCS_SHOTS[name]) fs.copyFileSync(file, path.join(docs, DOCS_SHOTS[name]));
}

/** An environment with neither `ctlpgn` on PATH nor a cargo folder holding it. */
function cleanEnvironment() {
  const env = { ...process.env };
  env.HOME = folders.home;
  env.CARGO_HOME = path.join(folders.home, '.cargo');
  env.PATH = (process.env.PATH || '')
    .split(path.delimiter)
    .filter((folder) => !fs.existsSync(path.join(folder, 'ctlpgn')))
    .join(path.delimiter);
  // Every request stays on the loopback interface: the gallery is a closed local port.
  env.EXTENSIONS_GALLERY = JSON.stringify({
    serviceUrl: 'http://127.0.0.1:9/gallery',
    itemUrl: 'http://127.0.0.1:9/item',
    resourceUrlTemplate: 'http://127.0.0.1:9/resource',
  });
  return env;
}

test.before(async () => {
  fs.rmSync(shots, { recursive: true, force: true });
  for (const folder of [...Object.values(folders), shots]) fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folders.workspace, 'errors.ctl-pgn'), ERRORS);
  fs.writeFileSync(path.join(folders.workspace, 'unformatted.ctl-pgn'), UNFORMATTED);
  fs.writeFileSync(path.join(folders.workspace, 'control.js'), CONTROL);
  fs.writeFileSync(path.join(folders.workspace, 'castle.ctl-pgn'), CASTLE);
  fs.writeFileSync(path.join(folders.workspace, 'many.ctl-pgn'), manyRecords());
  // A file of the archive nobody opens: its problems show only with ctlpgn.diagnostics.workspace.
  fs.mkdirSync(path.join(folders.workspace, 'archive', '2025'), { recursive: true });
  fs.writeFileSync(path.join(folders.workspace, 'archive', '2025', 'never-opened.ctl-pgn'), NEVER_OPENED);
  // Records with mistakes that are opened, then closed: their problems must go with them.
  for (const name of CLOSED) fs.writeFileSync(path.join(folders.workspace, name), NEVER_OPENED);
  fs.mkdirSync(path.join(folders.userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(folders.userData, 'User', 'settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'security.workspace.trust.enabled': false,
      'workbench.tips.enabled': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'telemetry.telemetryLevel': 'off',
      // The protocol goes to the CTL-PGN output channel, whose log holds the initialize request.
      // The web worker extension host keeps its logs in the browser, out of the test's reach:
      // there the trace stays off, as a user has it.
      ...(web ? {} : { 'ctlpgn.trace.server': 'verbose' }),
      // code-server runs an extension whose kind is `ui` in the browser's web worker extension
      // host, with its `browser` entry.
      ...(web ? { 'remote.extensionKind': { 'ctlpgn.ctlpgn': ['ui'] } } : {}),
    }),
  );
  const config = path.join(work, 'config.yaml');
  fs.writeFileSync(config, 'auth: none\ncert: false\n');
  const env = cleanEnvironment();
  const common = ['--config', config, '--user-data-dir', folders.userData, '--extensions-dir', folders.extensions];
  execFileSync(process.execPath, [entry, ...common, '--install-extension', vsix], { env, stdio: 'inherit' });

  const port = await freePort();
  server = spawn(
    process.execPath,
    [entry, ...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry',
      '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'],
    { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const log = fs.createWriteStream(path.join(shots, 'code-server.log'));
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  await until('code-server to answer', async () => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
    } catch {
      return false;
    }
  });

  browser = await chromium.launch({
    executablePath: browserBinary,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${port}` });
  page = await context.newPage();
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folders.workspace)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: PATIENCE });
  await page.waitForSelector("[id='status.problems']", { timeout: PATIENCE });
});

test.after(async () => {
  if (browser) await browser.close();
  if (server && server.exitCode === null) {
    // Its own process group: the extension host and the language server go with it.
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {}
    const exited = new Promise((resolve) => server.once('exit', resolve));
    const timer = setTimeout(() => {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {}
    }, 5000);
    await exited;
    clearTimeout(timer);
  }
  fs.rmSync(work, { recursive: true, force: true });
});

// ---- What a person does -----------------------------------------------------------------

/** Opens a file of the workspace by clicking its name in the Explorer. */
async function open(name) {
  const item = page.locator('.explorer-folders-view .monaco-list-row .label-name').getByText(name, { exact: true });
  await item.waitFor({ timeout: PATIENCE });
  await item.click();
  await until(`${name} open`, async () => (await page.locator('.tab.active').first().innerText().catch(() => '')).includes(name));
  // The text area of the editor takes the keys.
  await page.locator('.editor-instance .monaco-editor textarea').first().focus();
}

/** Moves the cursor with Go to Line/Column (1-based, characters). */
async function goTo(line, column) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ timeout: PATIENCE });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await until(`the cursor at ${line}:${column}`, async () =>
    (await page.locator("[id='status.editor.selection']").innerText().catch(() => '')).includes(`Ln ${line}, Col ${column}`),
  );
}

/** Sets one user setting as a person does: the settings file opened from the palette, its text
 *  replaced, saved and closed; the editor before it is focused again. */
async function editUserSettings(key, value) {
  const settingsFile = path.join(folders.userData, 'User', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  settings[key] = value;
  await runCommand('Preferences: Open User Settings (JSON)');
  // In the group that has the focus, which is not the first when the board panel is open.
  const group = page.locator('.editor-group-container.active');
  await until('the settings file open', async () => (await group.locator('.tab.active').first().innerText().catch(() => '')).includes('settings.json'));
  await group.locator('.editor-instance .monaco-editor textarea').first().focus();
  // The clipboard takes text only while the page has the focus, which the palette may still
  // hold for a moment after the file opened.
  const text = JSON.stringify(settings, null, 2);
  await until('the settings on the clipboard', async () =>
    page.evaluate((value) => navigator.clipboard.writeText(value).then(() => true), text).catch(() => false),
  );
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await page.keyboard.press('Control+S');
  // Read while VS Code writes it, the file may be empty or cut short for a moment: not saved yet.
  const saved = () => {
    try {
      return JSON.parse(fs.readFileSync(settingsFile, 'utf8'))[key] === value;
    } catch {
      return false;
    }
  };
  await until(`${key} saved`, async () => saved());
  await page.keyboard.press('Control+W');
  await page.keyboard.press('Control+1');
}

/** The rows of the Problems panel, as they read. */
async function problems() {
  return page.locator('.markers-panel .monaco-list-row').allInnerTexts();
}

async function showProblems() {
  if (!(await page.locator('.markers-panel').isVisible().catch(() => false))) {
    await page.keyboard.press('Control+Shift+M');
  }
  await page.locator('.markers-panel').waitFor({ timeout: PATIENCE });
}

/** Runs a command from the palette by its title. */
async function runCommand(title) {
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ timeout: PATIENCE });
  await input.fill(`>${title}`);
  await until(`${title} in the palette`, async () =>
    (await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts()).some((row) => row.includes(title)),
  );
  await page.keyboard.press('Enter');
}

/** The notifications' messages on screen. */
async function notifications() {
  return page.locator('.notification-list-item-message').allInnerTexts();
}

/** Standard output of `ctlpgn ARGS`; status 1 (findings) is an answer too. */
function run(args, input) {
  const result = spawnSync(ctlpgn, args, { input, encoding: 'utf8' });
  assert.ok(result.status === 0 || result.status === 1, `ctlpgn ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** The PDTL after the main-line half-move written `move` in a workspace file, by `ctlpgn replay`. */
function pdtlAfter(file, move) {
  const record = JSON.parse(run(['replay', '--json', path.join(folders.workspace, file)]).split('\n')[0]);
  const ply = record.plies.find((candidate) => candidate.move === move);
  assert.ok(ply, `${move} is replayed in ${file}`);
  return ply.pdtl;
}

// ---- The flows --------------------------------------------------------------------------

test('an invalid record lists its codes in the Problems panel at their lines', async () => {
  await showProblems();
  const opened = Date.now();
  await open('errors.ctl-pgn');
  const rows = await until('the K003 and T011 problems', async () => {
    const found = await problems();
    return found.some((row) => row.includes('T011')) && found.some((row) => row.includes('K003')) && found;
  });
  // The first record opened activates the extension, which starts the server: this is
  // activation to the first problems shown (in the web host, the module compiled in its worker).
  console.log(`first record opened → its problems shown (${web ? 'web worker' : 'Node'} extension host): ${Date.now() - opened} ms`);
  await screenshot('problems');
  const row = (code) => rows.find((text) => text.includes(code));
  assert.match(row('T011'), /Ln 4, Col 8/);
  assert.match(row('K003'), /Ln 13, Col 13/);
  // Found with no setting and nothing on PATH: no notification says otherwise.
  assert.deepStrictEqual((await notifications()).filter((message) => message.includes('CTL-PGN')), []);
});

/** What the CTL-PGN output channel holds so far (its log files under the user data folder). */
function ctlpgnLog() {
  const logs = [];
  const walk = (folder) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('CTL-PGN.log')) logs.push(full);
    }
  };
  walk(path.join(folders.userData, 'logs'));
  return logs.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}

/** The `ctlpgn` processes of code-server's process group (the extension host's children among them). */
function ctlpgnProcesses() {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(path.join('/proc', entry, 'stat'), 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // `PID (COMM) STATE PPID PGRP ...`; COMM may hold spaces and parentheses.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    if (comm === 'ctlpgn' && group === server.pid) found.push(Number(entry));
  }
  return found;
}

/**
 * The lines the CTL-PGN output channel shows, read in the Output panel as a person reads them:
 * the web worker extension host keeps its logs in the browser, not in files. Focus returns to
 * the first editor group.
 */
async function ctlpgnOutput() {
  await runCommand('Output: Show Output Channels...');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await until('the output channels listed', async () =>
    (await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts()).some((row) => row.trim() === 'CTL-PGN'),
  );
  await input.fill('CTL-PGN');
  await until('CTL-PGN chosen', async () => (await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts()).every((row) => row.includes('CTL-PGN')));
  await page.keyboard.press('Enter');
  const lines = await until('the CTL-PGN output', async () => {
    const shown = await page.locator("[id='workbench.panel.output'] .view-line").allInnerTexts();
    return shown.some((line) => line.trim() !== '') && shown;
  });
  await page.keyboard.press('Control+1');
  return lines.map((line) => line.replace(/\u00a0/g, ' ')).join('\n');
}

/** Whether the extension has started its language server, as its output channel says. */
async function serverStarted() {
  return web ? (await ctlpgnOutput()).includes('Started the language server in a web worker') : ctlpgnLog().includes('Starting ');
}

test('in the web host the language server is the WebAssembly module in a web worker, and no ctlpgn runs', { skip: !web && 'the web host only' }, async () => {
  // The problems of the first flow came from the worker the extension started.
  const output = await ctlpgnOutput();
  await screenshot('web-worker-output');
  const started = /Started the language server in a web worker \((\d+) ms\)/.exec(output);
  assert.ok(started, output);
  console.log(`the worker started with the module in it: ${started[1]} ms`);
  assert.doesNotMatch(output, /did not start|Starting .* lsp/);
  assert.deepStrictEqual(ctlpgnProcesses(), [], 'no native server runs');
  assert.deepStrictEqual((await notifications()).filter((message) => message.includes('CTL-PGN')), []);
});

test('the server the package carries was the one started', desktopOnly('the web host starts no binary and keeps its logs in the browser'), async () => {
  const log = await until('the CTL-PGN output log', async () => {
    const text = ctlpgnLog();
    return text.includes("Sending request 'initialize") && text.includes('Params: ') && text;
  });
  assert.match(log, new RegExp(`Starting ${folders.extensions.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[^ ]+/server/ctlpgn lsp \\(bundled, version`));
  // The initialize request, as the real VS Code sent it (trace: "Params: {…}" then a blank line).
  const start = log.indexOf('Params: ', log.indexOf("Sending request 'initialize")) + 'Params: '.length;
  const params = JSON.parse(log.slice(start, log.indexOf('\n\n', start)));
  assert.deepStrictEqual(params.capabilities.general.positionEncodings, ['utf-16']);
  assert.ok(params.capabilities.textDocument.diagnostic, 'VS Code pulls diagnostics');
  const recorded = path.join(repository, 'tests', 'fixtures', 'initialize', 'vscode.json');
  // Stable across runs: the process id, the folder and the version-specific names replaced.
  params.processId = 4242;
  params.rootPath = '/home/user/games';
  params.rootUri = 'file:///home/user/games';
  params.workspaceFolders = [{ uri: 'file:///home/user/games', name: 'games' }];
  // The test turns the trace on to read this request; a user's default is off.
  params.trace = 'off';
  if (process.env.CTLPGN_RECORD_INITIALIZE === '1') {
    fs.writeFileSync(recorded, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }, null, 2) + '\n');
  }
  const fixture = JSON.parse(fs.readFileSync(recorded, 'utf8'));
  assert.deepStrictEqual(params.capabilities, fixture.params.capabilities, 'tests/fixtures/initialize/vscode.json is what VS Code sends: record it again');
});

/** The pieces of a PDTL's placement, as `side+letter` counts (`wK: 1`): what the board draws. */
function piecesOfPdtl(pdtl) {
  const counts = {};
  for (const letter of pdtl.split(' ')[0].replace(/\d+:/g, '').replace(/[^A-Za-z]/g, '')) {
    const key = (letter === letter.toUpperCase() ? 'w' : 'b') + letter.toUpperCase();
    counts[key] = (counts[key] || 0) + 1;
  }
  return counts;
}

/** The pieces an SVG board draws (its `data-side` and `data-piece` attributes), counted so. */
function piecesOfSvg(svg) {
  const counts = {};
  for (const match of svg.matchAll(/data-piece="([A-Z])" data-side="([wb])"|data-side="([wb])"[^>]*data-piece="([A-Z])"/g)) {
    const key = (match[2] || match[3]) + (match[1] || match[4]);
    counts[key] = (counts[key] || 0) + 1;
  }
  return counts;
}

test('hover on a half-move shows the position after it', async () => {
  await open('errors.ctl-pgn');
  await goTo(12, 6); // on the ‐ of F8‐F12 (a coordinate would add its own hover)
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
  const hover = page.locator('.monaco-hover:not(.hidden)');
  await hover.waitFor({ timeout: PATIENCE });
  const text = await until('the hover text', async () => {
    const shown = await hover.innerText().catch(() => '');
    return shown.includes('PDTL') && shown;
  });
  // The hover fades in and its image decodes after its text: the screenshot waits for both,
  // so that it shows what a person sees once the hover has settled.
  await hover.evaluate(async (element) => {
    const animations = element.getAnimations({ subtree: true });
    for (let above = element.parentElement; above; above = above.parentElement) animations.push(...above.getAnimations());
    const finite = animations.filter((animation) => animation.effect?.getTiming().iterations !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => {})));
    await Promise.all([...element.querySelectorAll('img')].map((image) => image.decode().catch(() => {})));
  });
  await until('the hover to be opaque', () => hover.evaluate((element) => {
    for (let at = element; at; at = at.parentElement) if (Number(getComputedStyle(at).opacity) < 1) return false;
    return true;
  }));
  await screenshot('hover');
  const expected = pdtlAfter('errors.ctl-pgn', 'F8‐F12');
  assert.ok(text.includes(expected), `the hover shows ${expected}:\n${text}`);
  // The board is an image: an SVG whose pieces are the PDTL's, small enough not to scroll.
  const image = hover.locator('img').first();
  const source = await image.getAttribute('src');
  assert.ok(source.startsWith('data:image/svg+xml;base64,'), source.slice(0, 60));
  const svg = Buffer.from(source.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
  assert.deepStrictEqual(piecesOfSvg(svg), piecesOfPdtl(expected));
  const box = await image.boundingBox();
  assert.ok(box && box.width <= 250 && box.height <= 250, JSON.stringify(box));
  const scrolls = await hover.evaluate((element) => {
    const scrollable = element.querySelector('.monaco-scrollable-element > div') || element;
    return { scroll: scrollable.scrollHeight, client: scrollable.clientHeight };
  });
  console.log(`hover: image ${JSON.stringify(box)}, content ${JSON.stringify(scrolls)}`);
  assert.ok(scrolls.scroll <= scrolls.client, `the hover does not scroll up and down: ${JSON.stringify(scrolls)}`);
  await page.keyboard.press('Escape');
});

test('Show board opens the panel at the cursor, and → in it moves the editor cursor', async () => {
  await open('errors.ctl-pgn');
  await goTo(12, 5); // on F8‐F12
  await runCommand('CTL-PGN: Show board');
  const panel = page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
  const expected = pdtlAfter('errors.ctl-pgn', 'F8‐F12');
  await until('the PDTL in the panel', async () => (await panel.locator('[data-pdtl]').innerText().catch(() => '')) === expected);
  assert.strictEqual(await panel.locator('[data-ply][aria-current=step]').innerText(), '2. F8‐F12');
  // The PDTL stays whole on one line, the string a user copies, in a panel a third of the window.
  const pdtlLines = await panel.locator('[data-pdtl]').evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
  assert.strictEqual(pdtlLines, 1, 'the PDTL on one line');
  const svg = await panel.locator('.ctlpgn-board-box').innerHTML();
  assert.deepStrictEqual(piecesOfSvg(svg), piecesOfPdtl(expected));
  await screenshot('board-panel');
  await panel.locator('.ctlpgn-board-box').click();
  await page.keyboard.press('ArrowRight');
  const next = pdtlAfter('errors.ctl-pgn', 'F20‐F16');
  await until('the next half-move in the panel', async () => (await panel.locator('[data-pdtl]').innerText().catch(() => '')) === next);
  assert.strictEqual(await panel.locator('[data-ply][aria-current=step]').innerText(), '2. …, F20‐F16');
  await screenshot('board-panel-next');
  // Back in the editor (without clicking into its text): the cursor stands on F20‐F16.
  await page.keyboard.press('Control+1');
  await until('the cursor on F20‐F16', async () =>
    (await page.locator("[id='status.editor.selection']").innerText().catch(() => '')).includes('Ln 12, Col 12'),
  );
  await page.keyboard.press('Control+W').catch(() => {});
});

test('typing [ on a new line in the tags completes tag names', async () => {
  await open('errors.ctl-pgn');
  await goTo(1, 21);
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('[');
  const labels = await until('the tag names', async () => {
    const shown = await page.locator('.suggest-widget.visible .monaco-list-row .label-name').allInnerTexts();
    return shown.length > 0 && shown;
  });
  await screenshot('completion');
  assert.ok(labels.some((label) => label.includes('Event')) || labels.some((label) => label.includes('Id')), labels.join(', '));
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Z');
  await page.keyboard.press('Control+Z');
  await until('the text back as it was', async () => !(await page.locator('.tab.active').getAttribute('class')).includes('dirty'));
});

test('a bad coordinate raises its code as it is typed, and undo clears it', async () => {
  await open('errors.ctl-pgn');
  await showProblems();
  await goTo(11, 10); // after E13 in `1. E7-E13, E21-E15`
  await page.keyboard.type('9');
  await until('C002 in the Problems panel', async () => (await problems()).some((row) => row.includes('C002') && row.includes('Ln 11')));
  await screenshot('bad-coordinate');
  await page.keyboard.press('Control+Z');
  await until('C002 gone', async () => !(await problems()).some((row) => row.includes('C002')));
  await screenshot('undone');
});

test('the format characters are not boxed as ambiguous, where a JavaScript string boxes them', async () => {
  await open('control.js');
  await until('the boxes in JavaScript', async () => (await page.locator('.editor-instance .unicode-highlight').count()) > 0);
  await open('errors.ctl-pgn');
  await goTo(13, 1); // E13×F16 and F8‐F12 on screen
  // The same decorations VS Code drew in plain text would be drawn here by now: the editor
  // lays out decorations with the text.
  await page.locator('.view-line').filter({ hasText: '×' }).first().waitFor({ timeout: PATIENCE });
  await screenshot('no-ambiguous-boxes');
  assert.strictEqual(await page.locator('.editor-instance .unicode-highlight').count(), 0);
});

test('the copy command puts the PDTL at the cursor on the clipboard', async () => {
  await open('errors.ctl-pgn');
  await goTo(12, 5);
  await runCommand('CTL-PGN: Copy position (PDTL)');
  const expected = pdtlAfter('errors.ctl-pgn', 'F8‐F12');
  await until('the notification', async () => (await notifications()).some((message) => message.includes(expected)));
  await screenshot('copied');
  assert.strictEqual(await page.evaluate(() => navigator.clipboard.readText()), expected);
});

test('saving formats the file exactly as ctlpgn fmt', async () => {
  await open('unformatted.ctl-pgn');
  await goTo(6, 1);
  await page.keyboard.type(' ');
  const typed = UNFORMATTED.replace('2. F8', ' 2. F8');
  await page.keyboard.press('Control+S');
  const expected = run(['fmt', '-'], typed);
  assert.notStrictEqual(expected, typed, 'the fixture needs formatting');
  await until('the formatted file on disk', async () =>
    fs.readFileSync(path.join(folders.workspace, 'unformatted.ctl-pgn'), 'utf8') === expected,
  );
  await screenshot('formatted-on-save');
});

// ---- Playing on the board ---------------------------------------------------------------

/** The board panel's page. */
function boardPanel() {
  return page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
}

/** The lines of the text editor on screen, top to bottom, as they read. */
async function visibleLines() {
  return page.evaluate(() => {
    const view = document.querySelector('.editor-instance .monaco-editor .view-lines');
    return [...(view ? view.querySelectorAll('.view-line') : [])]
      .map((line) => ({ top: parseFloat(line.style.top), text: line.textContent.replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((line) => line.text);
  });
}

/** Waits until the editor shows `line`; returns every line shown. */
async function untilLine(line) {
  return until(`"${line}" in the editor`, async () => {
    const lines = await visibleLines();
    return lines.includes(line) && lines;
  });
}

/** The label of the half-move the panel stands on. */
async function currentMove() {
  return boardPanel().locator('[data-ply][aria-current=step]').innerText().catch(() => '');
}

/**
 * Plays by clicks in the panel: the piece on `from`, then the mark on `to`. Resolves once the
 * mark is clicked, with the time of the click on the page's clock.
 */
async function clickMove(from, to) {
  const panel = boardPanel();
  await panel.locator(`[data-piece][data-hex="${from}"]`).click();
  const mark = panel.locator(`[data-target="${to}"]`);
  await mark.waitFor({ timeout: PATIENCE });
  const clicked = await page.evaluate(() => performance.now());
  await mark.click();
  return clicked;
}

/** Milliseconds from `clicked` (the page's clock) until the editor shows `line`. */
async function millisecondsUntilLine(clicked, line) {
  return page.evaluate(
    ({ clicked, line }) =>
      new Promise((resolve) => {
        const shows = () => {
          const view = document.querySelector('.editor-instance .monaco-editor .view-lines');
          return view && [...view.querySelectorAll('.view-line')].some((row) => row.textContent.replace(/\u00a0/g, ' ') === line);
        };
        if (shows()) return resolve(performance.now() - clicked);
        const observer = new MutationObserver(() => {
          if (shows()) {
            observer.disconnect();
            resolve(performance.now() - clicked);
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
    { clicked, line },
  );
}

test('New game, then a game recorded by clicks on the board, and a variation from an earlier move', async () => {
  // From an editor of the workspace, once the workbench has read the extension's commands.
  await open('castle.ctl-pgn');
  await until('the extension started', serverStarted);
  await runCommand('CTL-PGN: New game');
  await untilLine('[Result "*"]');
  const panel = boardPanel();
  await until('the starting position in the panel', async () => (await panel.locator('.ctlpgn-turn').innerText().catch(() => '')) === 'White to move');
  const today = new Date();
  const date = [today.getFullYear(), today.getMonth() + 1, today.getDate()].map((part, index) => String(part).padStart(index === 0 ? 4 : 2, '0')).join('-');
  assert.deepStrictEqual((await visibleLines()).slice(0, 10), [
    '[Variant "C\'escacs"]', '[Event "?"]', '[Site "?"]', `[Date "${date}"]`, '[Round "?"]', '[White "?"]', '[Black "?"]', '[Result "*"]', '', '*',
  ]);
  // A click on a piece marks where it may go; Esc takes the marks away.
  await panel.locator('[data-piece][data-hex="K4"]').click();
  await panel.locator('[data-target="K6"]').waitFor({ timeout: PATIENCE });
  assert.ok((await panel.locator('[data-target]').count()) >= 2, 'the pawn may go one, two or three steps');
  await screenshot('play-marks');
  await page.keyboard.press('Escape');
  await until('the marks gone', async () => (await panel.locator('[data-target]').count()) === 0);
  // White's move, written as the record's first move line; the cursor and the board on it.
  const clicked = await clickMove('K4', 'K6');
  console.log(`click → text in a new game: ${Math.round(await millisecondsUntilLine(clicked, '1. K4-K6:'))} ms`);
  await untilLine('1. K4-K6:');
  await until('the panel on the new half-move', async () => (await currentMove()) === '1. K4-K6');
  assert.strictEqual(await panel.locator('.ctlpgn-turn').innerText(), 'Black to move');
  await screenshot('play-first-move');
  // The PDTL wraps in the panel but is one string: the copy button gives it whole.
  const recorded = (await visibleLines()).slice(0, 11).join('\n') + '\n';
  const expected = run(['pdtl', '--ply', '1', '-'], recorded).trim();
  assert.strictEqual(await panel.locator('[data-pdtl]').innerText(), expected);
  await panel.locator('[data-action=copy]').click();
  await until('the PDTL on the clipboard', async () => (await page.evaluate(() => navigator.clipboard.readText())) === expected);
  // Black's answer goes on the same move line, the end mark with it.
  await clickMove('E21', 'E19');
  await untilLine('1. K4-K6, E21-E19:');
  await until('the panel on the answer', async () => (await currentMove()) === '1. …, E21-E19');
  // Back to White's move in the move list, then another answer: a variation.
  await panel.locator('[data-ply="1"]').click();
  await until('the panel back on White\'s move', async () => (await currentMove()) === '1. K4-K6');
  await clickMove('E21', 'E17');
  const lines = await untilLine('(1. …, E21-E17)');
  assert.deepStrictEqual(lines.slice(8, 12), ['', '1. K4-K6, E21-E19:', '(1. …, E21-E17)', '*']);
  await until('the panel in the variation', async () => (await currentMove()) === '1. …, E21-E17');
  // The editor's cursor on the variation's line (the panel keeps the focus, so the status bar
  // shows no position; the editor marks the cursor's line number).
  await until('the cursor on the variation\'s line', async () =>
    (await page.locator('.editor-instance .monaco-editor .line-numbers.active-line-number').first().innerText().catch(() => '')) === '11',
  );
  await screenshot('play-variation');
});

test('where several half-moves go to one hex the board asks which, and Ctrl+Z takes the move back', async () => {
  // The files open in the editors' group, not the panel's.
  await page.keyboard.press('Control+1');
  await open('castle.ctl-pgn');
  await goTo(6, 21); // after EH24-H20:
  await runCommand('CTL-PGN: Show board');
  const panel = boardPanel();
  await until('the panel on EH24-H20', async () => (await currentMove()) === '3. …, EH24-H20');
  await clickMove('G1', 'H6');
  const choices = panel.locator('[data-choice]');
  await choices.first().waitFor({ timeout: PATIENCE });
  const offered = await choices.evaluateAll((buttons) => buttons.map((button) => [button.dataset.choice, button.textContent]));
  assert.ok(offered.length > 1, JSON.stringify(offered));
  assert.ok(offered.every(([choice, text]) => choice === text), JSON.stringify(offered));
  assert.ok(offered.some(([choice]) => choice === 'KG1-H6'), JSON.stringify(offered));
  assert.ok(offered.some(([choice]) => choice === 'KRK-HIOO'), JSON.stringify(offered));
  await screenshot('play-choice');
  await panel.locator('[data-choice="KRK-HIOO"]').click();
  const lines = await untilLine('4. KRK-HIOO:');
  assert.deepStrictEqual(lines.slice(3, 8), ['1. H6-H10, H22-H18', '2. I5-I9, I23-I19', '3. EH4-H8, EH24-H20', '4. KRK-HIOO:', '*']);
  await screenshot('play-castled');
  // One play, one edit: one Ctrl+Z in the editor gives the record back as it was.
  await page.locator('.editor-instance .monaco-editor textarea').first().focus();
  await page.keyboard.press('Control+Z');
  await until('the record as it was', async () => (await visibleLines()).slice(0, 7).join('\n') + '\n' === CASTLE);
});

test('playing on a 2,000-record file writes the move within a click', async () => {
  // The protocol trace the initialize test reads logs every message, megabytes for this file:
  // off, as a user has it, before the file opens (in the user settings, as a person edits them).
  if (!web) {
    await editUserSettings('ctlpgn.trace.server', 'off');
    await until('the trace off', async () => ctlpgnLog().includes('"trace":{"server":"off"}'));
  }
  await open('many.ctl-pgn');
  const text = fs.readFileSync(path.join(folders.workspace, 'many.ctl-pgn'), 'utf8');
  const lastRecord = text.slice(0, text.lastIndexOf('[Variant')).split('\n').length;
  await goTo(lastRecord + 1, 1); // in the tags of the record without moves
  await runCommand('CTL-PGN: Show board');
  const panel = boardPanel();
  await until('the starting position in the panel', async () =>
    (await panel.locator('.ctlpgn-turn').innerText().catch(() => '')) === 'White to move' && (await panel.locator('[data-ply]').count()) === 0,
  );
  // The position posted again (the panel shown again) keeps the piece picked and its marks: a
  // refresh must not swallow the click on a mark that follows. A second click on the piece
  // lets it go.
  const picked = panel.locator('[data-piece][data-hex="K4"]');
  await picked.click();
  await panel.locator('[data-target="K6"]').waitFor({ timeout: PATIENCE });
  const shown = async () => Number(await panel.locator('.ctlpgn-view').getAttribute('data-shown'));
  const before = await shown();
  await runCommand('CTL-PGN: Show board');
  await until('the position posted again', async () => (await shown()) > before);
  assert.ok((await panel.locator('[data-target="K6"]').count()) > 0, 'the marks of K4 stay after a refresh');
  await picked.click();
  await until('the marks gone', async () => (await panel.locator('[data-target]').count()) === 0);
  // The first click after the file opened, then the next one.
  const first = await millisecondsUntilLine(await clickMove('K4', 'K6'), '1. K4-K6:');
  await until('the panel on the new half-move', async () => (await currentMove()) === '1. K4-K6');
  const next = await millisecondsUntilLine(await clickMove('E21', 'E19'), '1. K4-K6, E21-E19:');
  console.log(`click → text on a 2,000-record file: ${Math.round(first)} ms, then ${Math.round(next)} ms`);
  await screenshot('play-many');
});

/** Opens a file of the workspace from Quick Open (Ctrl+P), as a person who knows its name, in
 *  the first editor group (the board panel may hold the second). */
async function quickOpen(name) {
  await page.keyboard.press('Control+1');
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ timeout: PATIENCE });
  await input.fill(name);
  await until(`${name} in Quick Open`, async () =>
    (await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts()).some((row) => row.includes(name)),
  );
  await page.keyboard.press('Enter');
  const group = page.locator('.editor-group-container.active');
  await until(`${name} open`, async () => (await group.locator('.tab.active').first().innerText().catch(() => '')).includes(name));
  await group.locator('.editor-instance .monaco-editor textarea').first().focus();
}

/** Whether the Problems panel shows a file by its name (its heading row). */
async function problemsOf(name) {
  return (await problems()).some((row) => row.includes(name));
}

/** The file opened from Quick Open shows its problems; closed, they stay or go as `gone` wants. */
async function openThenClose(name) {
  await quickOpen(name);
  await showProblems();
  await until(`the problems of ${name}`, async () => problemsOf(name));
  await page.keyboard.press('Control+W');
  await until(`${name} closed`, async () => !(await page.locator('.tab').allInnerTexts()).some((tab) => tab.includes(name)));
}

test('a record closed takes its problems with it (ctlpgn.diagnostics.workspace off)', async () => {
  await openThenClose('closed-off.ctl-pgn');
  await until('the problems of the closed file gone', async () => !(await problemsOf('closed-off.ctl-pgn')));
  await screenshot('closed-problems-gone');
  // The server answered its last pull, and nothing brings them back.
  const explorerBadge = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'closed-off.ctl-pgn' });
  assert.ok(!(await explorerBadge.innerText()).match(/\b\d+\b/), 'no count of problems beside its name');
});

test('with ctlpgn.diagnostics.workspace on, Problems lists the mistakes of a file never opened', async () => {
  await showProblems();
  assert.ok(!(await problems()).some((row) => row.includes('never-opened')), 'off by default');
  await editUserSettings('ctlpgn.diagnostics.workspace', true);
  await showProblems();
  const rows = await until('the problems of never-opened.ctl-pgn', async () => {
    const found = await problems();
    const file = found.findIndex((row) => row.includes('never-opened.ctl-pgn'));
    const codes = found.slice(file + 1, file + 4).join('\n');
    return file >= 0 && ['N013', 'K003', 'C003'].every((code) => codes.includes(code)) && found;
  });
  await screenshot('workspace-problems');
  const ofTheFile = rows.slice(rows.findIndex((row) => row.includes('never-opened.ctl-pgn')));
  assert.match(ofTheFile.find((text) => text.includes('C003')), /Ln 15, Col 8/);
  const tabs = await page.locator('.tab').allInnerTexts();
  assert.ok(!tabs.some((tab) => tab.includes('never-opened')), `never opened: ${tabs}`);
});

test('with ctlpgn.diagnostics.workspace on, a record closed shows the problems on the disk, until mended there', async () => {
  await openThenClose('closed-on.ctl-pgn');
  // The file's problems now come from the disk, the same mistakes.
  await until('the disk problems of the closed file', async () => problemsOf('closed-on.ctl-pgn'));
  fs.writeFileSync(path.join(folders.workspace, 'closed-on.ctl-pgn'), CLEAN);
  await until('the problems gone once the file is mended on the disk', async () => !(await problemsOf('closed-on.ctl-pgn')));
  await screenshot('closed-mended');
});

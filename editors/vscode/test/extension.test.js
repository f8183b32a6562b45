// The compiled extension under Node, with a stand-in `vscode` module and a fake server
// process: what it starts, what it sends at `initialize`, what the copy command and the board panel do, and
// what the user is told when the server binary is missing.

'use strict';

const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');

const { install, loadExtension, extensionContext, root, Uri, Position } = require('./vscode-mock');

/** Temporary folders, removed when the tests are done. */
const folders = [];
test.after(() => folders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

function temporaryFolder(prefix) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/**
 * A folder holding an executable `ctlpgn` that runs the fake server, and the log of the
 * messages that binary received (each binary its own, to tell which one was started).
 */
function fakeServer(folder = temporaryFolder('ctlpgn-vscode-')) {
  fs.mkdirSync(folder, { recursive: true });
  const binary = path.join(folder, 'ctlpgn');
  const script = path.join(__dirname, 'fake-server.js');
  const log = path.join(folder, 'messages.jsonl');
  fs.writeFileSync(binary, `#!/bin/sh\nCTLPGN_FAKE_LOG="${log}" exec "${process.execPath}" "${script}" "$@"\n`, { mode: 0o755 });
  const messages = () =>
    fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line)) : [];
  return { folder, binary, messages };
}

/**
 * Activates the extension with these settings, as installed in `extensionPath` (default: an
 * empty folder, so that no bundled server is found); `finish` deactivates it and cleans up.
 */
async function activate(settings, extensionPath = temporaryFolder('ctlpgn-extension-')) {
  const record = install(settings);
  const extension = loadExtension();
  await extension.activate(extensionContext(extensionPath));
  record.finish = async () => {
    await extension.deactivate();
    record.uninstall();
  };
  return record;
}

test('the server starts from ctlpgn.server.path, with the settings as initializationOptions', async () => {
  const server = fakeServer();
  const record = await activate({
    'ctlpgn.server.path': server.binary,
    'ctlpgn.rules.enable': true,
    'ctlpgn.format.separators': 'unicode',
  });
  await record.finish();
  assert.deepStrictEqual(record.errors, []);
  const initialize = server.messages().find((message) => message.method === 'initialize');
  assert.deepStrictEqual(initialize.params.initializationOptions, {
    rules: { enable: true },
    diagnostics: { workspace: false },
    format: { separators: 'unicode', ellipsis: 'keep' },
    hover: { images: true },
  });
  assert.deepStrictEqual(initialize.params.capabilities.general.positionEncodings, ['utf-16']);
  // The `exit` that follows may still be on its way when the client has stopped.
  assert.deepStrictEqual(
    server.messages().map((message) => message.method).slice(0, 4),
    ['initialize', 'initialized', 'workspace/didChangeConfiguration', 'shutdown'],
  );
  // The whole `ctlpgn` section, as VS Code gives it, which the server reads the same way.
  const changed = server.messages().find((message) => message.method === 'workspace/didChangeConfiguration');
  assert.deepStrictEqual(changed.params.settings.ctlpgn, {
    server: { path: server.binary },
    rules: { enable: true },
    diagnostics: { workspace: false },
    format: { separators: 'unicode', ellipsis: 'keep' },
    trace: { server: 'off' },
  });
});

test('the copy command puts the position the server gives on the clipboard', async () => {
  const server = fakeServer();
  const pdtl = '/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/16:3p3/15:3p4/13:3P4/12:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr F16@18 0 3';
  process.env.CTLPGN_FAKE_PDTL = pdtl;
  try {
    const record = await activate({ 'ctlpgn.server.path': server.binary });
    record.vscode.window.activeTextEditor = {
      document: { languageId: 'ctlpgn', uri: Uri.file('/games/Vidàl.ctl-pgn') },
      selection: { active: new Position(11, 17) },
    };
    await record.commands.get('ctlpgn.copyPosition')();
    await record.finish();
    assert.strictEqual(record.clipboard, pdtl);
    assert.deepStrictEqual(record.informations, [`CTL-PGN: copied PDTL ${pdtl}`]);
    const command = server.messages().find((message) => message.method === 'workspace/executeCommand');
    assert.deepStrictEqual(command.params, {
      command: 'ctlpgn.positionAt',
      arguments: ['file:///games/Vid%C3%A0l.ctl-pgn', { line: 11, character: 17 }],
    });
  } finally {
    delete process.env.CTLPGN_FAKE_PDTL;
  }
});

test('without a position at the cursor the clipboard is left alone and the user is told', async () => {
  const server = fakeServer();
  const record = await activate({ 'ctlpgn.server.path': server.binary });
  record.vscode.window.activeTextEditor = {
    document: { languageId: 'ctlpgn', uri: Uri.file('/games/a.ctl-pgn') },
    selection: { active: new Position(0, 3) },
  };
  await record.commands.get('ctlpgn.copyPosition')();
  await record.finish();
  assert.strictEqual(record.clipboard, undefined);
  assert.deepStrictEqual(record.informations, ['CTL-PGN: no position at the cursor; put it on a half-move that could be replayed.']);
});

test('Show board opens a strict panel that follows the cursor and moves it', async () => {
  const server = fakeServer();
  const record = await activate({ 'ctlpgn.server.path': server.binary });
  const editor = {
    document: { languageId: 'ctlpgn', uri: Uri.file('/games/a.ctl-pgn') },
    selection: { active: new Position(2, 5) },
    revealRange() {},
  };
  record.vscode.window.activeTextEditor = editor;
  await record.commands.get('ctlpgn.showBoard')();
  assert.strictEqual(record.panels.length, 1);
  const panel = record.panels[0];
  assert.strictEqual(panel.viewType, 'ctlpgn.board');
  assert.ok(panel.options.enableScripts);
  const html = panel.webview.html;
  const nonce = /script-src 'nonce-([A-Za-z0-9]+)'/.exec(html)[1];
  assert.match(html, /default-src 'none'/);
  assert.ok(html.includes(`<script nonce="${nonce}" src=`), html);
  assert.match(html, /out\/webview\/board\.js/);
  assert.match(html, /media\/board\.css/);
  assert.doesNotMatch(html, /https?:/);
  // The page says it is ready: the panel asks the server for the board at the cursor.
  panel.send({ type: 'ready' });
  const shown = await panel.until((message) => message.type === 'board');
  assert.strictEqual(shown.answer.ply, 1);
  const request = server.messages().find((message) => message.method === 'ctlpgn/board');
  assert.deepStrictEqual(request.params.textDocument, { uri: 'file:///games/a.ctl-pgn' });
  assert.deepStrictEqual(request.params.position, { line: 2, character: 5 });
  assert.strictEqual(request.params.flip, false);
  // → in the page: the editor's cursor goes to the next half-move.
  panel.send({ type: 'goto', ply: 2 });
  await panel.until((message) => message.type === 'board' && editor.selection.active.character === 10);
  assert.deepStrictEqual([editor.selection.active.line, editor.selection.active.character], [2, 10]);
  // End in the page: the line's last half-move, outside the window the answer lists.
  panel.send({ type: 'goto', ply: 300 });
  await panel.until(() => editor.selection.active.line === 151);
  assert.deepStrictEqual([editor.selection.active.line, editor.selection.active.character], [151, 11]);
  // Home: before the first half-move, at the start of its line.
  panel.send({ type: 'goto', ply: 0 });
  await panel.until(() => editor.selection.active.line === 2);
  assert.deepStrictEqual([editor.selection.active.line, editor.selection.active.character], [2, 0]);
  panel.send({ type: 'flip' });
  await panel.until(() => server.messages().some((message) => message.method === 'ctlpgn/board' && message.params.flip === true));
  panel.send({ type: 'copy', pdtl: 'PDTL after 1. K4-K6' });
  await panel.until(() => record.clipboard !== undefined);
  assert.strictEqual(record.clipboard, 'PDTL after 1. K4-K6');
  assert.ok(record.serializers.has('ctlpgn.board'));
  await record.finish();
  assert.deepStrictEqual(record.errors, []);
});

test('the panel\'s page loads its script and style from the extension\'s folder, inside the folders the webview may read', async () => {
  // Run on an unpacked .vsix too (CTLPGN_EXTENSION_ROOT): the package holds what the page loads.
  const server = fakeServer();
  const record = await activate({ 'ctlpgn.server.path': server.binary }, root);
  record.vscode.window.activeTextEditor = {
    document: { languageId: 'ctlpgn', uri: Uri.file('/games/a.ctl-pgn') },
    selection: { active: new Position(2, 5) },
    revealRange() {},
  };
  await record.commands.get('ctlpgn.showBoard')();
  const panel = record.panels[0];
  const loaded = [...panel.webview.html.matchAll(/ (?:src|href)="([^"]+)"/g)].map(([, uri]) =>
    decodeURIComponent(uri.replace(/^file:\/\//, '')),
  );
  assert.strictEqual(loaded.length, 2, panel.webview.html);
  const readable = panel.options.localResourceRoots.map((uri) => uri.fsPath + '/');
  for (const file of loaded) {
    assert.ok(file.startsWith(root + '/'), `${file} is in the extension's folder`);
    assert.ok(fs.existsSync(file) && fs.statSync(file).isFile(), `${file} is there`);
    assert.ok(readable.some((folder) => file.startsWith(folder)), `${file} lies in ${readable.join(', ')}`);
  }
  await record.finish();
  assert.deepStrictEqual(record.errors, []);
});

test('a half-move played on the board is the server\'s edit, applied, with the cursor on it', async () => {
  const server = fakeServer();
  const record = await activate({ 'ctlpgn.server.path': server.binary });
  const document = { languageId: 'ctlpgn', uri: Uri.file('/games/a.ctl-pgn'), version: 1 };
  const editor = { document, selection: { active: new Position(2, 8) }, revealRange() {} };
  record.vscode.window.activeTextEditor = editor;
  await record.commands.get('ctlpgn.showBoard')();
  const panel = record.panels[0];
  panel.send({ type: 'ready' });
  const shown = await panel.until((message) => message.type === 'board');
  assert.deepStrictEqual(shown.answer.moves, [{ from: 'E21', to: 'E19', text: 'E21-E19' }]);
  // The page plays a move: asked where the board stands, the edit applied, the cursor after it.
  panel.send({ type: 'play', move: 'E21-E19' });
  await panel.until(() => editor.selection.active.character === 17);
  const play = server.messages().find((message) => message.method === 'ctlpgn/play');
  // The play names the version the board's answer stands in.
  assert.deepStrictEqual(play.params, {
    textDocument: { uri: 'file:///games/a.ctl-pgn', version: 1 },
    position: { line: 2, character: 8 },
    move: 'E21-E19',
  });
  assert.strictEqual(record.applied.length, 1);
  const [replacement] = record.applied[0].replacements;
  assert.strictEqual(replacement.uri, document.uri);
  assert.deepStrictEqual(
    [replacement.range.start.line, replacement.range.start.character, replacement.range.end.line, replacement.range.end.character],
    [2, 8, 2, 9],
  );
  assert.strictEqual(replacement.newText, ', E21-E19:');
  assert.deepStrictEqual([editor.selection.active.line, editor.selection.active.character], [2, 17]);
  // A move the server refuses: the page is told why, nothing is applied.
  panel.send({ type: 'play', move: 'E21-E13' });
  const refused = await panel.until((message) => message.type === 'refused');
  assert.strictEqual(refused.reason, '`E21-E13` is not a half-move Black may play here');
  assert.strictEqual(record.applied.length, 1);
  // The document edited since the server answered: its edit is not applied.
  document.version = 2;
  panel.send({ type: 'play', move: 'E21-E19' });
  const stale = await panel.until((message) => message.type === 'refused' && message !== refused);
  assert.strictEqual(stale.reason, 'The record changed meanwhile: play again.');
  assert.strictEqual(record.applied.length, 1);
  await record.finish();
  assert.deepStrictEqual(record.errors, []);
});

test('New game opens an untitled record ready to play, the board beside it', async () => {
  const server = fakeServer();
  const record = await activate({ 'ctlpgn.server.path': server.binary });
  await record.commands.get('ctlpgn.newGame')();
  assert.strictEqual(record.opened.length, 1);
  const [document] = record.opened;
  assert.strictEqual(document.languageId, 'ctlpgn');
  const today = new Date();
  const date = [today.getFullYear(), today.getMonth() + 1, today.getDate()].map((part, index) => String(part).padStart(index === 0 ? 4 : 2, '0')).join('-');
  assert.strictEqual(
    document.text,
    `[Variant "C'escacs"]\n[Event "?"]\n[Site "?"]\n[Date "${date}"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n[Result "*"]\n\n*\n`,
  );
  // The cursor on the blank line before the result: the record's start, where a move is played.
  const [editor] = record.shown;
  assert.deepStrictEqual([editor.selection.active.line, editor.selection.active.character], [8, 0]);
  assert.strictEqual(record.panels.length, 1);
  await record.finish();
  const manifest = require('../package.json');
  assert.ok(manifest.contributes.commands.some((command) => command.command === 'ctlpgn.newGame' && command.title === 'New game'));
});

test('the board panel comes back after a reload, flipped as it was', async () => {
  const { webviewPanel } = require('./vscode-mock');
  const server = fakeServer();
  const record = await activate({ 'ctlpgn.server.path': server.binary });
  record.vscode.window.activeTextEditor = {
    document: { languageId: 'ctlpgn', uri: Uri.file('/games/a.ctl-pgn') },
    selection: { active: new Position(2, 5) },
    revealRange() {},
  };
  const panel = webviewPanel('ctlpgn.board', {});
  await record.serializers.get('ctlpgn.board').deserializeWebviewPanel(panel, { flip: true });
  assert.match(panel.webview.html, /Content-Security-Policy/);
  panel.send({ type: 'ready' });
  const shown = await panel.until((message) => message.type === 'board');
  assert.strictEqual(shown.flip, true);
  await record.finish();
  const manifest = require('../package.json');
  assert.ok(manifest.activationEvents.includes('onWebviewPanel:ctlpgn.board'));
  assert.ok(manifest.contributes.menus['editor/title'].some((item) => item.command === 'ctlpgn.showBoard'));
});

/** Runs `body` with PATH and CARGO_HOME pointing at `folder` only. */
async function withSearchPath(folder, body) {
  const saved = { PATH: process.env.PATH, CARGO_HOME: process.env.CARGO_HOME };
  process.env.PATH = folder;
  process.env.CARGO_HOME = folder;
  try {
    return await body();
  } finally {
    Object.assign(process.env, saved);
    if (saved.CARGO_HOME === undefined) delete process.env.CARGO_HOME;
  }
}

test('the server the extension carries is started when no path is set, before PATH', async () => {
  const onPath = fakeServer();
  const extensionFolder = temporaryFolder('ctlpgn-extension-');
  const bundled = fakeServer(path.join(extensionFolder, 'server'));
  await withSearchPath(onPath.folder, async () => {
    const record = await activate({}, extensionFolder);
    await record.finish();
    assert.deepStrictEqual(record.errors, []);
    assert.deepStrictEqual(record.warnings, []);
  });
  assert.ok(bundled.messages().some((message) => message.method === 'initialize'));
  assert.deepStrictEqual(onPath.messages(), []);
});

test('a server on PATH is found when the extension carries none', async () => {
  const server = fakeServer();
  await withSearchPath(server.folder, async () => {
    const record = await activate({});
    await record.finish();
    assert.deepStrictEqual(record.errors, []);
  });
  assert.ok(server.messages().some((message) => message.method === 'initialize'));
});

test('a server path that does not work is reported, and the next candidate is used', async () => {
  const server = fakeServer();
  await withSearchPath(server.folder, async () => {
    const record = await activate({ 'ctlpgn.server.path': '/nowhere/ctlpgn' });
    await record.finish();
    assert.deepStrictEqual(record.errors, [
      `CTL-PGN: \`ctlpgn.server.path\` does not work (no such file); using PATH ${server.binary} instead.`,
    ]);
  });
  assert.ok(server.messages().some((message) => message.method === 'initialize'));
});

test('with no working server, one notification names every place tried and opens the setting', async () => {
  const empty = temporaryFolder('ctlpgn-empty-');
  const broken = path.join(temporaryFolder('ctlpgn-broken-'), 'ctlpgn');
  fs.writeFileSync(broken, '#!/bin/sh\necho something else\n', { mode: 0o755 });
  const extensionFolder = temporaryFolder('ctlpgn-extension-');
  await withSearchPath(empty, async () => {
    const record = install({ 'ctlpgn.server.path': broken });
    record.pick = true;
    const extension = loadExtension();
    await extension.activate(extensionContext(extensionFolder));
    // The button's command runs after the notification is answered.
    await new Promise((resolve) => setImmediate(resolve));
    await extension.deactivate();
    record.uninstall();
    assert.deepStrictEqual(record.errors, [
      'CTL-PGN: no working language server `ctlpgn` was found. Tried: ' +
        `ctlpgn.server.path ${broken} (\`--version\` printed "something else", not "ctlpgn VERSION"); ` +
        `bundled ${path.join(extensionFolder, 'server', 'ctlpgn')} (no such file); ` +
        `cargo ${path.join(empty, 'bin', 'ctlpgn')} (no such file); ` +
        'PATH (1 folders, none holds ctlpgn). ' +
        'Install the extension for your platform (it carries the server), or `cargo install --locked --path server` from the ctlpgn repository, or set `ctlpgn.server.path`.',
    ]);
    assert.deepStrictEqual(record.executed, [['workbench.action.openSettings', 'ctlpgn.server.path']]);
  });
});

test('a server of another version than the extension is reported once', async () => {
  const server = fakeServer();
  process.env.CTLPGN_FAKE_VERSION = '0.0.9';
  try {
    const record = install({ 'ctlpgn.server.path': server.binary });
    const extension = loadExtension();
    const context = extensionContext(temporaryFolder('ctlpgn-extension-'));
    await extension.activate(context);
    await extension.deactivate();
    await extension.activate(context);
    await extension.deactivate();
    record.uninstall();
    const version = require(path.join(root, 'package.json')).version;
    assert.deepStrictEqual(record.warnings, [
      `CTL-PGN: the language server ${server.binary} is version 0.0.9, the extension ${version}; some features may differ.`,
    ]);
  } finally {
    delete process.env.CTLPGN_FAKE_VERSION;
  }
});

// Run against an unpacked platform package (CTLPGN_EXTENSION_ROOT, with CTLPGN_EXPECT_BUNDLED=1
// in CI): the server it carries is found and started with no setting and nothing on PATH.
if (process.env.CTLPGN_EXPECT_BUNDLED === '1') {
  test('the server the package carries starts with no setting and nothing on PATH', async () => {
    const bundled = path.join(root, 'server', process.platform === 'win32' ? 'ctlpgn.exe' : 'ctlpgn');
    assert.ok(fs.statSync(bundled).mode & 0o111, `${bundled} is executable`);
    await withSearchPath(temporaryFolder('ctlpgn-empty-'), async () => {
      const record = await activate({}, root);
      await record.finish();
      assert.deepStrictEqual(record.errors, []);
      assert.deepStrictEqual(record.warnings, []);
    });
  });
}

test('the manifest: Restricted Mode supported without the workspace choosing the binary, the format characters unboxed', () => {
  const manifest = require(path.join(root, 'package.json'));
  assert.deepStrictEqual(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.deepStrictEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['ctlpgn.server.path']);
  const defaults = manifest.contributes.configurationDefaults['[ctlpgn]'];
  for (const character of ['×', '‐', '…', '◇', '♔', '♞', '\u{1FA4F}']) {
    assert.strictEqual(defaults['editor.unicodeHighlight.allowedCharacters'][character], true, character);
  }
  assert.strictEqual(defaults['editor.minimap.showRegionSectionHeaders'], false);
  assert.ok(manifest.contributes.commands.every((command) => command.category === 'CTL-PGN'));
  assert.ok(manifest.icon && fs.existsSync(path.join(root, manifest.icon)), 'the icon is packaged');
  assert.strictEqual(manifest.main, './out/extension.js');
});

// The browser's entry (VS Code for the Web): the script `browser` names, the worker it starts
// and the module the worker runs are in the extension (in CI, the unpacked .vsix), and the
// script asks for no Node module. The tree a developer compiled without web/build.sh has no
// module; a package always has one (scripts/bundle.js fails without it).
test('the browser\'s entry, its worker script and the WebAssembly module are in the extension', (t) => {
  const manifest = require(path.join(root, 'package.json'));
  const module = path.join(root, 'out', 'ctlpgn_web.wasm');
  if (!process.env.CTLPGN_EXTENSION_ROOT && !fs.existsSync(module)) {
    t.skip('compiled without web/dist/ctlpgn_web.wasm (web/build.sh)');
    return;
  }
  assert.strictEqual(manifest.browser, './out/browser.js');
  const browser = fs.readFileSync(path.join(root, manifest.browser), 'utf8');
  for (const name of ['child_process', 'fs', 'path', 'os', 'net', 'vscode-languageclient/node']) {
    assert.ok(!new RegExp(`require\\(["']${name.replace('/', '\\/')}["']\\)`).test(browser), `${manifest.browser} requires no ${name}`);
  }
  const worker = fs.readFileSync(path.join(root, 'out', 'lsp-worker.js'), 'utf8');
  assert.ok(worker.includes('ctlpgn_lsp') && worker.includes('ctlpgn/restarted'), 'out/lsp-worker.js is web/js/lsp-worker.js');
  const bytes = fs.readFileSync(module);
  assert.deepStrictEqual([...bytes.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d], 'out/ctlpgn_web.wasm is a WebAssembly module');
  const exported = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((entry) => entry.name);
  for (const name of ['ctlpgn_lsp', 'ctlpgn_lsp_settle', 'ctlpgn_alloc', 'ctlpgn_free', 'memory']) {
    assert.ok(exported.includes(name), `the module exports ${name}`);
  }
});

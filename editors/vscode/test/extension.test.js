// The compiled extension under Node, with a stand-in `vscode` module and a fake server
// process: what it starts, what it sends at `initialize`, what the copy command does, and
// what the user is told when the server binary is missing.

'use strict';

const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');

const { install, loadExtension, Uri, Position } = require('./vscode-mock');

/** Temporary folders, removed when the tests are done. */
const folders = [];
test.after(() => folders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

function temporaryFolder(prefix) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** A folder holding an executable `ctlpgn` that runs the fake server; its message log. */
function fakeServer() {
  const folder = temporaryFolder('ctlpgn-vscode-');
  const binary = path.join(folder, 'ctlpgn');
  const script = path.join(__dirname, 'fake-server.js');
  fs.writeFileSync(binary, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`, { mode: 0o755 });
  const log = path.join(folder, 'messages.jsonl');
  process.env.CTLPGN_FAKE_LOG = log;
  const messages = () =>
    fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line)) : [];
  return { folder, binary, messages };
}

/** Activates the extension with these settings; `finish` deactivates it and cleans up. */
async function activate(settings) {
  const record = install(settings);
  const extension = loadExtension();
  await extension.activate({ subscriptions: [] });
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
    format: { separators: 'unicode', ellipsis: 'keep' },
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

test('a server path that names no file is reported with how to install the server', async () => {
  const record = await activate({ 'ctlpgn.server.path': '/nowhere/ctlpgn' });
  await record.finish();
  assert.deepStrictEqual(record.errors, [
    'CTL-PGN: `ctlpgn.server.path` is "/nowhere/ctlpgn", but there is no such file. Install it with `cargo install --locked --path server` from the ctlpgn repository, or set `ctlpgn.server.path`.',
  ]);
});

test('a server found neither on PATH nor in cargo\'s folder is reported', async () => {
  const empty = temporaryFolder('ctlpgn-empty-');
  const saved = { PATH: process.env.PATH, CARGO_HOME: process.env.CARGO_HOME };
  process.env.PATH = empty;
  process.env.CARGO_HOME = empty;
  try {
    const record = await activate({});
    await record.finish();
    assert.deepStrictEqual(record.errors, [
      'CTL-PGN: the language server `ctlpgn` was not found on PATH. Install it with `cargo install --locked --path server` from the ctlpgn repository, or set `ctlpgn.server.path`.',
    ]);
  } finally {
    Object.assign(process.env, saved);
    if (saved.CARGO_HOME === undefined) delete process.env.CARGO_HOME;
  }
});

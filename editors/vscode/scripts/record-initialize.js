// Records the `initialize` request this extension sends, with the default settings, into
// tests/fixtures/initialize/vscode.json, for the Rust tests that replay them against the
// server. The capabilities are those vscode-languageclient computes from its features, by its
// own code; the stand-in `vscode` module (test/vscode-mock.js) supplies only the editor's
// name, version and locale. The process id is replaced by a fixed one so that recording again
// changes nothing when the client did not change. Run `npm run compile` first.

'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { install, loadExtension } = require('../test/vscode-mock');

async function main() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctlpgn-record-'));
  const binary = path.join(folder, 'ctlpgn');
  const server = path.join(__dirname, '..', 'test', 'fake-server.js');
  fs.writeFileSync(binary, `#!/bin/sh\nexec "${process.execPath}" "${server}" "$@"\n`, { mode: 0o755 });
  process.env.CTLPGN_FAKE_LOG = path.join(folder, 'messages.jsonl');

  const record = install({ 'ctlpgn.server.path': binary });
  const extension = loadExtension();
  await extension.activate({ subscriptions: [] });
  await extension.deactivate();
  record.uninstall();

  const messages = fs.readFileSync(process.env.CTLPGN_FAKE_LOG, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const initialize = messages.find((message) => message.method === 'initialize');
  initialize.params.processId = 4242;
  const fixture = path.join(__dirname, '..', '..', '..', 'tests', 'fixtures', 'initialize', 'vscode.json');
  fs.writeFileSync(fixture, JSON.stringify(initialize, null, 2) + '\n');
  fs.rmSync(folder, { recursive: true, force: true });
  console.log(`recorded ${path.relative(process.cwd(), fixture)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

// The browser's entry (out/browser.js, VS Code for the Web) under Node, with the stand-in
// `vscode` module and a stand-in for the browser's Worker that runs the real worker script
// (out/lsp-worker.js) on a Node worker thread with the real WebAssembly module: the worker
// refused at the extension's address and started from a blob: URL, the handshake, the
// workspace survey's problems from the module, and the message when the module does not start.

'use strict';

const assert = require('node:assert');
const { resolveObjectURL } = require('node:buffer');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');
const { Worker: Thread } = require('node:worker_threads');

const { install, extensionContext, root, Uri, universal } = require('./vscode-mock');

const browserEntry = path.join(root, 'out', 'browser.js');
const wasmModule = path.join(root, 'out', 'ctlpgn_web.wasm');
const repository = path.resolve(__dirname, '..', '..', '..');
// Without web/build.sh the tree has no module; a package always has one.
const skip = !fs.existsSync(wasmModule) && !process.env.CTLPGN_EXTENSION_ROOT ? 'compiled without web/dist/ctlpgn_web.wasm (web/build.sh)' : false;

/** How long a test waits for the worker: a guard, never a pause. */
const PATIENCE = 20_000;

async function until(what, condition) {
  const started = Date.now();
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() - started > PATIENCE) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// What runs on the thread: the browser's worker globals the script uses, then the script.
const BOOTSTRAP = `
const { parentPort, workerData } = require('node:worker_threads');
globalThis.self = globalThis;
self.postMessage = (data) => parentPort.postMessage(data);
parentPort.on('message', (data) => self.onmessage({ data }));
require('node:vm').runInThisContext(workerData.script);
`;

/**
 * The browser's Worker as VS Code's web worker extension host has it: like code-server's, it
 * refuses a script at the extension's own address (a file: URL here) and runs a blob: URL's.
 */
function workerStandIn(created) {
  return class Worker extends EventTarget {
    constructor(url, options) {
      super();
      created.push({ url: String(url), name: options && options.name });
      if (!String(url).startsWith('blob:')) {
        throw new Error('Creating workers from remote extensions is currently not supported.');
      }
      this.onmessage = null;
      this.queue = [];
      this.posted = [];
      created[created.length - 1].worker = this;
      this.ready = resolveObjectURL(String(url)).text().then((script) => {
        this.thread = new Thread(BOOTSTRAP, { eval: true, workerData: { script } });
        this.thread.on('message', (data) => this.deliver(data));
        this.queue.forEach((data) => this.thread.postMessage(data));
      });
    }
    /** A message from the worker, to the handshake's listener and then the client's reader. */
    deliver(data) {
      const event = new MessageEvent('message', { data });
      this.dispatchEvent(event);
      if (this.onmessage) this.onmessage(event);
    }
    postMessage(data) {
      this.posted.push(data);
      if (this.thread) this.thread.postMessage(data);
      else this.queue.push(data);
    }
    terminate() {
      void this.ready.then(() => this.thread.terminate());
    }
  };
}

/**
 * Activates the browser's entry in `extensionPath` with these settings and these workspace
 * records (paths on disk); `finish` deactivates it and puts everything back.
 */
async function activate(settings, extensionPath, records = [], documents = []) {
  const record = install(settings);
  const created = [];
  const collections = [];
  const previous = globalThis.Worker;
  globalThis.Worker = workerStandIn(created);
  const vscode = record.vscode;
  vscode.workspace.fs = {
    readFile: async (uri) => new Uint8Array(fs.readFileSync(uri.fsPath)),
    stat: async (uri) => ({ size: fs.statSync(uri.fsPath).size }),
  };
  vscode.workspace.findFiles = async () => records.map((file) => Uri.file(file));
  // What the client's converter makes of the server's diagnostics.
  vscode.Diagnostic = class Diagnostic {
    constructor(range, message, severity) {
      Object.assign(this, { range, message, severity });
    }
  };
  vscode.DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };
  vscode.workspace.getWorkspaceFolder = () => undefined;
  vscode.workspace.textDocuments = documents;
  // The survey's collection records what it is given; the rest of `languages` accepts any use.
  const collection = (name) => {
    const entries = new Map();
    const made = { name, entries, set: (uri, diagnostics) => entries.set(uri.fsPath, diagnostics), delete: (uri) => entries.delete(uri.fsPath), clear: () => entries.clear(), dispose() {} };
    collections.push(made);
    return made;
  };
  vscode.languages = new Proxy({ createDiagnosticCollection: collection }, { get: (target, property) => (property in target ? target[property] : universal()) });
  for (const cached of Object.keys(require.cache)) if (cached === browserEntry) delete require.cache[cached];
  const extension = require(browserEntry);
  await extension.activate(extensionContext(extensionPath));
  Object.assign(record, { created, collections });
  record.finish = async () => {
    await extension.deactivate();
    globalThis.Worker = previous;
    record.uninstall();
  };
  return record;
}

test('the worker refused at the extension\'s address starts from a blob: URL, and the survey shows a closed record\'s problems from the module', { skip }, async () => {
  const mistakes = path.join(repository, 'examples', 'mistakes.ctl-pgn');
  const record = await activate({ 'ctlpgn.diagnostics.workspace': true }, root, [mistakes]);
  try {
    assert.deepStrictEqual(record.errors, []);
    assert.strictEqual(record.created.length, 2, JSON.stringify(record.created));
    assert.strictEqual(record.created[0].url, `file://${path.join(root, 'out', 'lsp-worker.js')}`);
    assert.match(record.created[1].url, /^blob:/);
    assert.ok(record.created.every((worker) => worker.name === 'CTL-PGN language server'));
    const survey = record.collections.find((made) => made.name === 'ctlpgn-workspace');
    const found = await until('the survey\'s problems', () => survey.entries.get(mistakes));
    // The three mistakes of the example, where `ctlpgn check` puts them.
    // A code with a link to the handbook comes as `{value, target}`.
    const code = (diagnostic) => (typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code);
    assert.deepStrictEqual(found.map((diagnostic) => [code(diagnostic), diagnostic.range.start.line + 1, diagnostic.range.start.character + 1]), [
      ['N013', 12, 21],
      ['K003', 13, 12],
      ['C003', 15, 8],
    ]);
  } finally {
    await record.finish();
  }
});

test('after the worker restarted its module, every open CTL-PGN document is opened again as it stands', { skip }, async () => {
  const text = '[Variant "C\'escacs"]\n[Result "*"]\n\n1. E7-E13:\n*\n';
  const open = { uri: Uri.file('/games/open.ctl-pgn'), languageId: 'ctlpgn', version: 7, getText: () => text, isClosed: false };
  const other = { uri: Uri.file('/games/notes.txt'), languageId: 'plaintext', version: 1, getText: () => 'notes', isClosed: false };
  const record = await activate({}, root, [], [open, other]);
  try {
    const worker = record.created.find((created) => created.url.startsWith('blob:')).worker;
    // The stand-in's `languages.match` matches nothing, so the client's own sync opened
    // nothing: every didOpen from here is the extension's answer to the restart.
    assert.ok(!worker.posted.some((message) => message.method === 'textDocument/didOpen'));
    const before = worker.posted.length;
    // What lsp-worker.js sends after a trap, once its new instance runs.
    worker.deliver({ jsonrpc: '2.0', method: 'ctlpgn/restarted', params: { reason: 'unreachable' } });
    const opened = await until('the didOpen after the restart', () => {
      const sent = worker.posted.slice(before).filter((message) => message.method === 'textDocument/didOpen');
      return sent.length > 0 && sent;
    });
    assert.deepStrictEqual(opened.map((message) => message.params.textDocument), [
      { uri: 'file:///games/open.ctl-pgn', languageId: 'ctlpgn', version: 7, text },
    ]);
  } finally {
    await record.finish();
  }
});

test('a module that does not start is named in one error message, and no client starts', { skip }, async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctlpgn-browser-'));
  try {
    fs.mkdirSync(path.join(folder, 'out'));
    fs.copyFileSync(path.join(root, 'out', 'lsp-worker.js'), path.join(folder, 'out', 'lsp-worker.js'));
    fs.writeFileSync(path.join(folder, 'out', 'ctlpgn_web.wasm'), 'not a module');
    const record = await activate({}, folder);
    await record.finish();
    assert.strictEqual(record.errors.length, 1, JSON.stringify(record.errors));
    assert.match(record.errors[0], /^CTL-PGN: the language server could not start in a web worker: the module did not start: .*WebAssembly/);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test('a missing module is named with its address', { skip }, async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ctlpgn-browser-'));
  try {
    const record = await activate({}, folder);
    await record.finish();
    assert.strictEqual(record.errors.length, 1, JSON.stringify(record.errors));
    assert.ok(record.errors[0].includes(`the module file://${path.join(folder, 'out', 'ctlpgn_web.wasm')} could not be read`), record.errors[0]);
    assert.deepStrictEqual(record.created, [], 'no worker is started without the module');
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

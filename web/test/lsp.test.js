// The language server in the browser (js/lsp-worker.js over the module's `ctlpgn_lsp`, run
// here in a stand-in worker scope under Node) answers what the native `ctlpgn lsp` answers over
// its standard input and output, message for message: the capabilities for VS Code's and
// Neovim's recorded `initialize`, then on every compared file the diagnostics (pulled or
// pushed), the whole-document requests and the requests about a place at the start of words
// of every line. The worker's own duties: the ready handshake, the pause after a change of a
// large record, and a restart after a trap.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import vm from 'node:vm';

import { binary, dist, records, repository, web } from './native.js';

const wasm = fs.readFileSync(path.join(dist, 'ctlpgn_web.wasm'));
const workerSource = fs.readFileSync(path.join(web, 'js', 'lsp-worker.js'), 'utf8');

/**
 * lsp-worker.js in a scope of its own, as a browser's worker runs it: `self.onmessage` is what
 * the page posts to, `self.postMessage` what the page receives. `webAssembly` stands for the
 * global WebAssembly (a test wraps it to make the module trap).
 */
class WorkerScope {
  constructor(webAssembly = WebAssembly) {
    this.received = [];
    this.waiting = [];
    const self = { postMessage: (message) => this.#receive(structuredClone(message)) };
    this.self = self;
    const timers = { setTimeout, clearTimeout };
    vm.runInNewContext(workerSource, { self, WebAssembly: webAssembly, TextEncoder, TextDecoder, Date, console, ...timers });
  }

  /** A message the worker posted: to the first waiter that wants it, else kept. */
  #receive(message) {
    const waiter = this.waiting.find((one) => one.wanted(message));
    if (waiter) {
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.resolve(message);
    } else {
      this.received.push(message);
    }
  }

  post(message) {
    this.self.onmessage({ data: structuredClone(message) });
  }

  /** The first message received, from now on or already, for which `wanted` holds. */
  next(wanted) {
    const found = this.received.find(wanted);
    if (found) {
      this.received.splice(this.received.indexOf(found), 1);
      return Promise.resolve(found);
    }
    return new Promise((resolve) => this.waiting.push({ wanted, resolve }));
  }

  async start(bytes = wasm) {
    this.post({ ctlpgn: 'start', wasm: bytes });
    return this.next((message) => message.ctlpgn !== undefined);
  }

  /** Every message received so far, taken. */
  take() {
    return this.received.splice(0);
  }
}

/** The native server over its standard input and output, with the protocol's framing. */
class NativeServer {
  constructor(settings) {
    this.process = spawn(binary, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.settings = settings;
    this.buffer = Buffer.alloc(0);
    this.pending = new Map();
    this.published = new Map();
    this.publishWaiters = [];
    this.nextId = 0;
    this.process.stdout.on('data', (chunk) => this.#read(chunk));
  }

  #read(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        return;
      }
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())[1]);
      if (this.buffer.length < end + 4 + length) {
        return;
      }
      const message = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
      this.buffer = this.buffer.subarray(end + 4 + length);
      this.#dispatch(message);
    }
  }

  #dispatch(message) {
    if (message.method === 'workspace/configuration') {
      this.#write({ jsonrpc: '2.0', id: message.id, result: message.params.items.map(() => this.settings) });
    } else if (message.method === 'textDocument/publishDiagnostics') {
      this.published.set(message.params.uri, message.params);
      for (const waiter of this.publishWaiters.splice(0)) {
        waiter();
      }
    } else if (message.id !== undefined && message.method !== undefined) {
      this.#write({ jsonrpc: '2.0', id: message.id, result: null });
    } else if (message.id !== undefined && this.pending.has(message.id)) {
      this.pending.get(message.id)(message);
      this.pending.delete(message.id);
    }
  }

  #write(message) {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.process.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.process.stdin.write(body);
  }

  request(method, params) {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.#write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.#write({ jsonrpc: '2.0', method, params });
  }

  /** The diagnostics published for `uri` at `version`, waiting for them. */
  async publishedAt(uri, version) {
    for (;;) {
      const published = this.published.get(uri);
      if (published && published.version === version) {
        return published;
      }
      await new Promise((resolve) => this.publishWaiters.push(resolve));
    }
  }

  async stop() {
    await this.request('shutdown', null);
    this.notify('exit', null);
    await new Promise((resolve) => this.process.on('exit', resolve));
  }
}

/** The worker's session, requests answered at once (the module answers within the call). */
class WorkerServer {
  constructor(settings) {
    this.scope = new WorkerScope();
    this.settings = settings;
    this.nextId = 0;
  }

  /** The messages the worker sent for `message`, the settings it asked for answered. */
  send(message) {
    this.scope.post(message);
    const sent = this.scope.take();
    for (const asked of sent.filter((one) => one.method === 'workspace/configuration')) {
      this.send({ jsonrpc: '2.0', id: asked.id, result: asked.params.items.map(() => this.settings) });
    }
    return sent;
  }

  request(method, params) {
    const id = `worker-${++this.nextId}`;
    const sent = this.send({ jsonrpc: '2.0', id, method, params });
    return sent.find((message) => message.id === id);
  }

  notify(method, params) {
    return this.send({ jsonrpc: '2.0', method, params });
  }
}

/** An answer as compared: its result, or its error's code (each transport words its messages). */
function compared(answer) {
  return answer.error ? { error: answer.error.code } : answer.result;
}

/** The start of every word of every line and each line's end, in UTF-16 code units. */
function places(text) {
  const found = [];
  text.split('\n').forEach((content, line) => {
    let afterSpace = true;
    for (let character = 0; character < content.length; character += 1) {
      const space = /\s/.test(content[character]);
      if (!space && afterSpace) {
        found.push({ line, character });
      }
      afterSpace = space;
    }
    found.push({ line, character: content.length });
  });
  return found;
}

/** The files compared, as the Rust comparison (test-support's `compared_files`) takes them. */
function comparedFiles() {
  const under = (folder) => {
    const directory = path.join(repository, folder);
    return fs.readdirSync(directory, { recursive: true }).filter((name) => name.endsWith('.ctl-pgn')).sort().map((name) => path.join(directory, name));
  };
  return [...under('testdata/examples'), ...under('testdata/diagnostics'), ...records('examples'), under('testdata/corpus/valid')[0]];
}

function recorded(name) {
  return JSON.parse(fs.readFileSync(path.join(repository, 'tests', 'fixtures', 'initialize', name), 'utf8')).params;
}

for (const [fixture, stride] of [['vscode.json', 3], ['neovim-0.11.json', 11]]) {
  test(`the worker answers what the native server answers, for ${fixture}`, async () => {
    const params = recorded(fixture);
    const options = params.initializationOptions ?? null;
    const native = new NativeServer(options);
    const worker = new WorkerServer(options);
    assert.deepEqual(await worker.scope.start(), { ctlpgn: 'ready' });
    const initialize = { processId: null, rootUri: null, capabilities: params.capabilities, initializationOptions: options, workspaceFolders: null };
    const initialized = compared(worker.request('initialize', initialize));
    assert.deepEqual(initialized, compared(await native.request('initialize', initialize)), 'the capabilities');
    native.notify('initialized', {});
    worker.notify('initialized', {});
    const pulls = typeof initialized.capabilities.diagnosticProvider === 'object';
    let asked = 0;
    for (const [index, file] of comparedFiles().entries()) {
      let text;
      try {
        text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(fs.readFileSync(file));
      } catch {
        // Not UTF-8: no client sends it (the Rust comparison leaves it out too).
        continue;
      }
      const name = `${fixture} ${path.relative(repository, file)}`;
      const uri = `file:///parity/${index}.ctl-pgn`;
      const document = { uri, languageId: 'ctl-pgn', version: 1, text };
      native.notify('textDocument/didOpen', { textDocument: document });
      const pushed = worker.notify('textDocument/didOpen', { textDocument: document });
      if (pulls) {
        assert.deepEqual(pushed, [], `${name}: nothing pushed to a client that pulls`);
      } else {
        assert.equal(pushed.length, 1, `${name}: one publishDiagnostics`);
        assert.deepEqual(pushed[0].params, await native.publishedAt(uri, 1), `${name}: pushed`);
      }
      const ofDocument = { textDocument: { uri } };
      const whole = { start: { line: 0, character: 0 }, end: { line: 2 ** 32 - 1, character: 0 } };
      const wholeRequests = [
        ['textDocument/diagnostic', ofDocument],
        ['textDocument/foldingRange', ofDocument],
        ['textDocument/documentSymbol', ofDocument],
        ['textDocument/semanticTokens/full', ofDocument],
        ['textDocument/formatting', { ...ofDocument, options: { tabSize: 4, insertSpaces: true } }],
        ['textDocument/codeAction', { ...ofDocument, range: whole, context: { diagnostics: [] } }],
        ['ctlpgn/checkText', { uri, text }],
      ];
      for (const [method, params] of wholeRequests) {
        assert.deepEqual(compared(worker.request(method, params)), compared(await native.request(method, params)), `${name}: ${method}`);
        asked += 1;
      }
      for (const position of places(text).filter((_, at) => at % stride === 0)) {
        const at = { textDocument: { uri }, position };
        for (const [method, params] of [
          ['textDocument/hover', at],
          ['textDocument/completion', at],
          ['textDocument/definition', at],
          ['textDocument/references', { ...at, context: { includeDeclaration: true } }],
          ['ctlpgn/board', at],
        ]) {
          const answer = compared(worker.request(method, params));
          assert.deepEqual(answer, compared(await native.request(method, params)), `${name}: ${method} ${JSON.stringify(position)}`);
          asked += 1;
        }
      }
      native.notify('textDocument/didClose', ofDocument);
      worker.notify('textDocument/didClose', ofDocument);
    }
    assert.ok(asked > 2_000, `${fixture}: ${asked} requests compared`);
    await native.stop();
  });
}

/** A session of the worker with one document open, pushing diagnostics. */
async function opened(scope, text) {
  assert.deepEqual(await scope.start(), { ctlpgn: 'ready' });
  scope.post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {} } });
  scope.post({ jsonrpc: '2.0', method: 'initialized', params: {} });
  scope.post({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///a.ctl-pgn', languageId: 'ctlpgn', version: 1, text } } });
  return scope.take();
}

const GAME = '[Variant "C\'escacs"]\n\n1. K4-K6, E21-E19:\n*\n';

test('a worker given no module, or a module that is not ours, says so instead of ready', async () => {
  const scope = new WorkerScope();
  const failed = await scope.start(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  assert.equal(failed.ctlpgn, 'failed');
  assert.match(failed.message, /no language server/);
  const broken = await new WorkerScope().start(new Uint8Array([1, 2, 3]));
  assert.equal(broken.ctlpgn, 'failed');
  scope.post({ jsonrpc: '2.0', id: 7, method: 'initialize', params: {} });
  assert.equal(scope.take()[0].error.code, -32603, 'a request before the start is refused');
});

test('the diagnostics of a large record wait for a pause in the typing, then come once', async () => {
  const scope = new WorkerScope();
  const moves = Array.from({ length: 14_000 }, (_, at) => `${at + 1}. ${at % 2 ? 'I7-H8' : 'H8-I7'}, ${at % 2 ? 'I15-H14' : 'H14-I15'}`);
  const text = `[Variant "C'escacs"]\n\n${moves.join('\n')}\n*\n`;
  const published = await opened(scope, text);
  assert.deepEqual(published.filter((message) => message.method === 'textDocument/publishDiagnostics').map((message) => message.params.version), [1]);
  for (const version of [2, 3]) {
    const range = { start: { line: 7_002, character: 0 }, end: { line: 7_002, character: 0 } };
    scope.post({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri: 'file:///a.ctl-pgn', version }, contentChanges: [{ range, text: ' ' }] } });
    assert.deepEqual(scope.take(), [], `version ${version} waits for the pause`);
  }
  const settled = await scope.next((message) => message.method === 'textDocument/publishDiagnostics');
  assert.equal(settled.params.version, 3);
});

test('a trap restarts the module: the request is refused, the client told, the session initialized again', async () => {
  // The module traps on a hover: the worker sees what a panic in the module gives it.
  const trapping = {
    ...WebAssembly,
    Module: WebAssembly.Module,
    RuntimeError: WebAssembly.RuntimeError,
    compile: (bytes) => WebAssembly.compile(bytes),
    instantiate: async (module) => trapOnHover(await WebAssembly.instantiate(module, {})),
    Instance: function Instance(module) {
      return trapOnHover(new WebAssembly.Instance(module, {}));
    },
  };
  const instances = [];
  function trapOnHover(instance) {
    const exports = { ...instance.exports };
    const lsp = exports.ctlpgn_lsp;
    exports.ctlpgn_lsp = (pointer, length) => {
      const message = new TextDecoder().decode(new Uint8Array(exports.memory.buffer, pointer, length));
      if (message.includes('textDocument/hover')) {
        throw new WebAssembly.RuntimeError('unreachable');
      }
      return lsp(pointer, length);
    };
    instances.push(exports);
    return { exports };
  }
  const scope = new WorkerScope(trapping);
  const first = await opened(scope, GAME);
  assert.equal(first.filter((message) => message.method === 'textDocument/publishDiagnostics').length, 1);
  const hover = { textDocument: { uri: 'file:///a.ctl-pgn' }, position: { line: 2, character: 4 } };
  scope.post({ jsonrpc: '2.0', id: 2, method: 'textDocument/hover', params: hover });
  const after = scope.take();
  assert.equal(after[0].id, 2);
  assert.equal(after[0].error.code, -32603);
  assert.match(after[0].error.message, /restarted/);
  assert.equal(after.at(-1).method, 'ctlpgn/restarted');
  assert.equal(instances.length, 2, 'a new instance');
  // The client opens its document again: the new instance, initialized by the worker, answers.
  scope.post({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///a.ctl-pgn', languageId: 'ctlpgn', version: 4, text: GAME } } });
  const reopened = scope.take();
  assert.deepEqual(reopened.map((message) => [message.method, message.params.version]), [['textDocument/publishDiagnostics', 4]]);
  scope.post({ jsonrpc: '2.0', id: 3, method: 'textDocument/documentSymbol', params: { textDocument: { uri: 'file:///a.ctl-pgn' } } });
  assert.ok(scope.take()[0].result.length > 0, 'the outline of the reopened document');
  // A module that traps again and again is stopped, and says so.
  for (let id = 10; id < 20; id += 1) {
    scope.post({ jsonrpc: '2.0', id, method: 'textDocument/hover', params: hover });
  }
  const shown = scope.take().filter((message) => message.method === 'window/showMessage');
  assert.equal(shown.length, 1);
  assert.match(shown[0].params.message, /reload the window/);
  scope.post({ jsonrpc: '2.0', id: 30, method: 'textDocument/documentSymbol', params: { textDocument: { uri: 'file:///a.ctl-pgn' } } });
  assert.match(scope.take()[0].error.message, /stopped/);
});

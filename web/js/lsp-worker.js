// The language server in a worker: ctlpgn-web's WebAssembly module, whose `ctlpgn_lsp` is the
// protocol layer's session (protocol/src/session.rs), fed with the JSON-RPC messages the
// client posts, and each message it answers posted back. The worker only passes messages
// through: all of the language server is in the module, the same code as the native one's.
//
// The host posts `{ctlpgn: 'start', wasm}` first (the module's bytes, or a compiled
// WebAssembly.Module) and waits for `{ctlpgn: 'ready'}`, or `{ctlpgn: 'failed', message}`;
// every message after that is a JSON-RPC message as an object (as vscode-jsonrpc's
// BrowserMessageWriter posts it), and every message the server sends is posted as one.
//
// A change to a record too large to check at every keystroke waits for a pause in the typing:
// PAUSE after the last didChange the worker asks the module for what waited
// (`ctlpgn_lsp_settle`), as the native server's timer does (RECHECK_PAUSE).
//
// A panic in the module traps (wasm32's panics abort), and the instance is dead with its
// documents. The worker starts a new instance of the same module, replays `initialize` and
// `initialized` as the client sent them, answers the request that trapped with an error, and
// sends `ctlpgn/restarted`, on which the client opens its documents again. After RESTARTS
// restarts within a minute (a document that traps whenever it is opened) it stops, says so
// in `window/showMessage`, and refuses the requests that follow.

const PAUSE = 300;
const RESTARTS = 5;
/** JSON-RPC's code for an internal error. */
const INTERNAL_ERROR = -32603;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The compiled module, the live instance's exports, and what to replay after a restart. */
let module = null;
let exports = null;
let initialize = null;
let initialized = null;
let pause = null;
let restarts = [];
let stopped = false;

self.onmessage = (event) => {
  const message = event.data;
  if (message && message.ctlpgn === 'start') {
    start(message.wasm).then(
      () => self.postMessage({ ctlpgn: 'ready' }),
      (error) => self.postMessage({ ctlpgn: 'failed', message: String(error && error.message || error) }),
    );
    return;
  }
  if (exports === null && !stopped) {
    refuse(message, 'the language server has not started');
    return;
  }
  receive(message);
};

async function start(wasm) {
  const compiled = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm);
  const started = (await WebAssembly.instantiate(compiled, {})).exports;
  if (typeof started.ctlpgn_lsp !== 'function') {
    throw new Error('the WebAssembly module has no language server (ctlpgn_lsp)');
  }
  module = compiled;
  exports = started;
}

/** Hands one message to the module and posts what it answers. */
function receive(message) {
  if (stopped) {
    refuse(message, 'the language server stopped after repeated internal errors; reload the window');
    return;
  }
  if (message && message.method === 'initialize') {
    initialize = message;
  } else if (message && message.method === 'initialized') {
    initialized = message;
  }
  let answers;
  try {
    answers = send(exports.ctlpgn_lsp, encoder.encode(JSON.stringify(message)));
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) {
      throw error;
    }
    restart(message, error);
    return;
  }
  post(answers);
  if (message && message.method === 'textDocument/didChange') {
    clearTimeout(pause);
    pause = setTimeout(settle, PAUSE);
  }
}

function settle() {
  pause = null;
  try {
    post(read(exports.ctlpgn_lsp_settle()));
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) {
      throw error;
    }
    restart(null, error);
  }
}

function post(messages) {
  for (const message of messages) {
    self.postMessage(message);
  }
}

/** Writes `bytes` into the module, calls `entry` with them, and reads the messages it answers. */
function send(entry, bytes) {
  const pointer = exports.ctlpgn_alloc(bytes.length);
  new Uint8Array(exports.memory.buffer, pointer, bytes.length).set(bytes);
  return read(entry(pointer, bytes.length));
}

/** The JSON array at the pointer and length packed in `packed`, which it frees. */
function read(packed) {
  const at = Number(packed >> 32n);
  const length = Number(packed & 0xffffffffn);
  const text = decoder.decode(new Uint8Array(exports.memory.buffer, at, length));
  exports.ctlpgn_free(at, length);
  return JSON.parse(text);
}

/** A new instance after a trap, brought to where the client believes the server stands. */
function restart(trapped, error) {
  clearTimeout(pause);
  const now = Date.now();
  restarts = restarts.filter((at) => now - at < 60_000).concat(now);
  refuse(trapped, `the language server stopped on an internal error (${error.message}) and was restarted`);
  if (restarts.length > RESTARTS) {
    stopped = true;
    const text = 'CTL-PGN: the language server stopped after repeated internal errors; reload the window to start it again.';
    self.postMessage({ jsonrpc: '2.0', method: 'window/showMessage', params: { type: 1, message: text } });
    return;
  }
  exports = new WebAssembly.Instance(module, {}).exports;
  for (const replayed of [initialize, initialized]) {
    if (replayed === null) {
      continue;
    }
    // The answer to initialize was given once; what initialized asks (the settings) goes to
    // the client again, whose answer reaches the new instance.
    const answers = send(exports.ctlpgn_lsp, encoder.encode(JSON.stringify(replayed)));
    post(answers.filter((answer) => answer.method !== undefined));
  }
  self.postMessage({ jsonrpc: '2.0', method: 'ctlpgn/restarted', params: { reason: error.message } });
}

/** Answers a request with an error; a notification or a response is dropped. */
function refuse(message, text) {
  if (message && message.method !== undefined && message.id !== undefined && message.id !== null) {
    self.postMessage({ jsonrpc: '2.0', id: message.id, error: { code: INTERNAL_ERROR, message: text } });
  }
}

// The glue between a page and the WebAssembly module of ctlpgn-web (web/src): JSON requests
// in and out through the module's memory, and the documents a page holds open. Calls are
// synchronous once the module is loaded, so that the editor's text and the module's never
// drift apart between two events.
//
// A panic in the module traps (wasm32's panics abort): the instance is then dead, its open
// documents with it. The glue starts a new instance of the same compiled module, opens every
// document again from the text the page holds (`source`), gives each handle its new number,
// tells the page (`onRestart`), and throws the failed call's error with code `restarted`: a
// request that traps is not sent again, since it would trap again.

/** The error of a request: `code` is the module's (`content-modified`, `refused`, …) or the glue's (`restarted`, `closed`). */
export class CtlpgnError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'CtlpgnError';
    this.code = code;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One loaded module; a page usually has one, shared by its editor and viewers (`Ctlpgn.shared`). */
export class Ctlpgn {
  /** The module loaded from `wasm`: a URL, or a function that resolves to its bytes. */
  static async load(wasm) {
    let module;
    if (typeof wasm === 'function') {
      module = await WebAssembly.compile(await wasm());
    } else {
      const response = await fetch(wasm);
      if (!response.ok) {
        throw new CtlpgnError('load', `cannot load ${wasm}: HTTP ${response.status}`);
      }
      // Streaming compilation needs the wasm MIME type; a static server that does not send it
      // still gets a working page.
      module = (response.headers.get('content-type') || '').startsWith('application/wasm')
        ? await WebAssembly.compileStreaming(response)
        : await WebAssembly.compile(await response.arrayBuffer());
    }
    return new Ctlpgn(module, await WebAssembly.instantiate(module, {}));
  }

  /** The module at `url`, loaded once for every caller on the page. */
  static shared(url) {
    const key = String(url);
    if (!loaded.has(key)) {
      loaded.set(key, Ctlpgn.load(url));
    }
    return loaded.get(key);
  }

  constructor(module, instance) {
    this.module = module;
    this.exports = instance.exports;
    /** The open documents, whose numbers change when the instance is restarted. */
    this.documents = new Set();
    this.listeners = [];
    /** How many times the module was restarted. */
    this.restarts = 0;
  }

  /** Calls `listener(error)` after each restart, once the documents are open again. */
  onRestart(listener) {
    this.listeners.push(listener);
  }

  /** The result of a request, or a thrown CtlpgnError. */
  call(method, params) {
    return this.#answer(() => this.#send('ctlpgn_call', encoder.encode(JSON.stringify({ method, params }))));
  }

  /**
   * The diagnostics of a text, or a file's bytes (S000 when they are not UTF-8), as
   * `ctlpgn check` reports them (`rules`: as `check --rules`), without opening a document: for
   * a page that only validates a record. The bytes go to the module as they are, not in JSON.
   */
  check(textOrBytes, { rules = false } = {}) {
    const bytes = typeof textOrBytes === 'string' ? encoder.encode(textOrBytes) : textOrBytes;
    return this.#answer(() => this.#send('ctlpgn_check_bytes', bytes, rules ? 1 : 0));
  }

  /**
   * Opens a text as a document. `source`, a function, gives the text the page holds for it
   * (read when the module is restarted); without one the text opened is used, changes and all.
   */
  open(text, { source } = {}) {
    const opened = this.call('open', { text });
    return this.#track(new Document(this, opened, { text, source }));
  }

  /** Opens a file's bytes: invalid UTF-8 is reported (S000) until the text is changed. */
  openBytes(bytes, { source } = {}) {
    const opened = this.#answer(() => this.#send('ctlpgn_open_bytes', bytes));
    return this.#track(new Document(this, opened, { bytes, source }));
  }

  #track(document) {
    this.documents.add(document);
    return document;
  }

  /** Writes `bytes` into the module, calls `entry` with them (and `more`), and reads the JSON answer. */
  #send(entry, bytes, ...more) {
    const exports = this.exports;
    const pointer = exports.ctlpgn_alloc(bytes.length);
    new Uint8Array(exports.memory.buffer, pointer, bytes.length).set(bytes);
    const packed = exports[entry](pointer, bytes.length, ...more);
    const at = Number(packed >> 32n);
    const length = Number(packed & 0xffffffffn);
    const text = decoder.decode(new Uint8Array(exports.memory.buffer, at, length));
    exports.ctlpgn_free(at, length);
    return JSON.parse(text);
  }

  /** The result of `send`, a trap turned into a restart. */
  #answer(send) {
    let answer;
    try {
      answer = send();
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        this.#restart(error);
        throw new CtlpgnError('restarted', `the checker stopped on an internal error (${error.message}) and was restarted`);
      }
      throw error;
    }
    if (answer.error) {
      throw new CtlpgnError(answer.error.code, answer.error.message);
    }
    return answer.result;
  }

  /**
   * A new instance with every document opened again. A document whose opening traps again is
   * left closed (its calls fail with `closed`), and the others opened again in a fresh
   * instance, rather than restarted without end.
   */
  #restart(error) {
    this.restarts += 1;
    for (;;) {
      this.exports = new WebAssembly.Instance(this.module, {}).exports;
      const failed = this.#reopen();
      if (failed === null) {
        break;
      }
      this.documents.delete(failed);
      failed.closed = true;
    }
    for (const listener of this.listeners) {
      listener(error);
    }
  }

  /** Opens every document in the new instance; the one whose opening trapped, or null. */
  #reopen() {
    for (const document of this.documents) {
      try {
        const opened = document.bytes
          ? this.#send('ctlpgn_open_bytes', document.bytes)
          : this.#send('ctlpgn_call', encoder.encode(JSON.stringify({ method: 'open', params: { text: document.currentText() } })));
        document.reopened(opened.result);
      } catch (again) {
        if (again instanceof WebAssembly.RuntimeError) {
          return document;
        }
        throw again;
      }
    }
    return null;
  }
}

const loaded = new Map();

/** An open document: its number in the module and its version, kept across restarts. */
class Document {
  constructor(session, opened, { text, bytes, source }) {
    this.session = session;
    this.id = opened.document;
    this.version = opened.version;
    this.text = text;
    /** The bytes a file was opened from, until its text changes: a restart then reports S000 again. */
    this.bytes = bytes;
    this.source = source;
    this.closed = false;
  }

  /** The text to open again after a restart. */
  currentText() {
    if (this.source) {
      return this.source();
    }
    return this.text;
  }

  reopened(opened) {
    this.id = opened.document;
    this.version = opened.version;
  }

  /** A request about this document: `params` with its number. */
  call(method, params = {}) {
    if (this.closed) {
      throw new CtlpgnError('closed', 'the document is closed');
    }
    return this.session.call(method, { ...params, document: this.id });
  }

  /**
   * Applies changes, each `{range?, text}` read in the text the ones before it left. After a
   * restart the reopened text already holds them (the page's), so `restarted` is not an error
   * here. A document opened without a `source` reads its whole text back after each change,
   * to open it again after a restart: an editor gives a `source`.
   */
  change(changes) {
    this.bytes = undefined;
    if (!this.source) {
      this.text = undefined;
    }
    try {
      this.version = this.call('change', { changes }).version;
    } catch (error) {
      if (!(error instanceof CtlpgnError && error.code === 'restarted' && this.source)) {
        throw error;
      }
    }
    if (!this.source && this.text === undefined) {
      this.text = this.call('text');
    }
    return this.version;
  }

  /** The text as the module holds it. */
  getText() {
    return this.call('text');
  }

  close() {
    if (!this.closed) {
      this.session.documents.delete(this);
      this.closed = true;
      try {
        this.session.call('close', { document: this.id });
      } catch {
        // Closing a document the module lost is done.
      }
    }
  }
}

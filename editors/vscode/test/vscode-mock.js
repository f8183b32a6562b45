// A stand-in for the `vscode` module, so that the compiled extension and the real
// vscode-languageclient run under Node: settings come from a plain object, messages and the
// clipboard are recorded, and the language client talks to a real child process. Whatever
// the client touches that matters to no test is a universal object that accepts any use.

'use strict';

const Module = require('module');
const path = require('path');

/** An object that can be called, constructed, read and awaited-over without effect. */
function universal() {
  const target = function () {};
  return new Proxy(target, {
    get(_, property) {
      if (property === 'then') return undefined;
      if (property === Symbol.toPrimitive) return () => '';
      if (property === Symbol.iterator) return function* () {};
      if (property === 'dispose') return () => {};
      return universal();
    },
    apply: () => universal(),
    construct: () => universal(),
  });
}

class Disposable {
  constructor(callback) {
    this.callback = callback;
  }
  static from(...disposables) {
    return new Disposable(() => disposables.forEach((d) => d && d.dispose && d.dispose()));
  }
  dispose() {
    if (this.callback) this.callback();
  }
}

class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (listener) => {
      this.listeners.push(listener);
      return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
    };
  }
  fire(value) {
    this.listeners.forEach((listener) => listener(value));
  }
  dispose() {
    this.listeners = [];
  }
}

class Uri {
  constructor(scheme, fsPath) {
    this.scheme = scheme;
    this.fsPath = fsPath;
    this.path = fsPath;
  }
  static file(fsPath) {
    return new Uri('file', fsPath);
  }
  static joinPath(base, ...parts) {
    return new Uri(base.scheme, path.posix.join(base.path, ...parts));
  }
  static parse(text) {
    return new Uri('file', text.replace(/^file:\/\//, ''));
  }
  toString() {
    // As VS Code prints URIs: each path segment percent-encoded.
    return `${this.scheme}://${this.path.split('/').map(encodeURIComponent).join('/')}`;
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
}

class Selection {
  constructor(anchor, active) {
    this.anchor = anchor;
    this.active = active;
  }
}

class Range {
  // As VS Code's: two positions, or four numbers.
  constructor(start, end, ...rest) {
    const numbers = typeof start === 'number';
    this.start = numbers ? new Position(start, end) : start;
    this.end = numbers ? new Position(rest[0], rest[1]) : end;
  }
}

/** An edit of documents, as the extension builds it: each replacement recorded. */
class WorkspaceEdit {
  constructor() {
    this.replacements = [];
  }
  replace(uri, range, newText) {
    this.replacements.push({ uri, range, newText });
  }
  get size() {
    return new Set(this.replacements.map((replacement) => String(replacement.uri))).size;
  }
}

const event = () => new Disposable();

/**
 * A webview panel: records the page and the messages the extension posts; `send` delivers a
 * message from the page; `until(test)` resolves with the first posted message passing `test`.
 */
function webviewPanel(viewType, options) {
  const fromPage = new EventEmitter();
  const disposed = new EventEmitter();
  const waiting = [];
  const panel = {
    viewType,
    options,
    posted: [],
    revealed: 0,
    webview: {
      html: '',
      options,
      cspSource: 'vscode-webview://fake',
      asWebviewUri: (uri) => uri,
      onDidReceiveMessage: fromPage.event,
      postMessage: async (message) => {
        panel.posted.push(message);
        for (const waiter of waiting.splice(0)) {
          if (waiter.test(message)) waiter.resolve(message);
          else waiting.push(waiter);
        }
        return true;
      },
    },
    onDidDispose: disposed.event,
    reveal: () => void (panel.revealed += 1),
    dispose: () => disposed.fire(),
    send: (message) => fromPage.fire(message),
    until: (test) => {
      const found = panel.posted.find(test);
      return found !== undefined ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ test, resolve }));
    },
  };
  return panel;
}

/**
 * The folder of the extension under test: this one, or the `extension` folder of an unpacked
 * .vsix named by CTLPGN_EXTENSION_ROOT, to check that the package holds all it needs.
 */
const root = process.env.CTLPGN_EXTENSION_ROOT ? path.resolve(process.env.CTLPGN_EXTENSION_ROOT) : path.join(__dirname, '..');

/** The defaults of the settings the extension contributes, by full key. */
function contributedDefaults() {
  const manifest = require(path.join(root, 'package.json'));
  const properties = manifest.contributes.configuration.properties;
  return Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, property.default]));
}

/**
 * Installs the stand-in. `settings` maps full keys (`ctlpgn.server.path`) to the values the
 * user set; the others keep their contributed defaults, as in VS Code. The returned record
 * collects what the extension showed and did.
 */
function install(settings) {
  const record = {
    errors: [], warnings: [], informations: [], executed: [], clipboard: undefined, commands: new Map(), panels: [], serializers: new Map(),
    // Edits applied, documents opened and shown; whether VS Code applies an edit.
    applied: [], opened: [], shown: [], applies: true,
  };
  const values = { ...contributedDefaults(), ...settings };
  // A key names a value, or an object of every value under it (`ctlpgn` → the whole section).
  const lookup = (full) => {
    if (Object.prototype.hasOwnProperty.call(values, full)) return values[full];
    const inside = Object.keys(values).filter((key) => key.startsWith(`${full}.`));
    if (inside.length === 0) return undefined;
    const object = {};
    for (const key of inside) {
      const parts = key.slice(full.length + 1).split('.');
      let at = object;
      parts.slice(0, -1).forEach((part) => (at = at[part] ??= {}));
      at[parts[parts.length - 1]] = values[key];
    }
    return object;
  };
  const configuration = (section) => ({
    get(key, fallback) {
      const found = lookup(section ? `${section}.${key}` : key);
      return found === undefined ? fallback : found;
    },
    has: (key) => lookup(section ? `${section}.${key}` : key) !== undefined,
    inspect: () => undefined,
    update: async () => {},
  });
  const outputChannel = () =>
    new Proxy(
      { name: 'CTL-PGN', logLevel: 0, onDidChangeLogLevel: event, dispose() {} },
      { get: (target, property) => (property in target ? target[property] : () => {}) },
    );
  const vscode = {
    version: '1.82.0',
    env: {
      appName: 'Visual Studio Code',
      appRoot: '',
      language: 'en',
      machineId: 'someValue.machineId',
      uiKind: 1,
      clipboard: { writeText: async (text) => void (record.clipboard = text) },
    },
    Disposable,
    EventEmitter,
    Uri,
    Position,
    Selection,
    Range,
    WorkspaceEdit,
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
    ColorThemeKind: { Light: 1, Dark: 2, HighContrast: 3, HighContrastLight: 4 },
    TextEditorRevealType: { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 },
    workspace: {
      getConfiguration: configuration,
      onDidChangeConfiguration: event,
      onDidOpenTextDocument: event,
      onDidChangeTextDocument: event,
      onDidCloseTextDocument: event,
      onDidSaveTextDocument: event,
      onWillSaveTextDocument: event,
      onDidChangeWorkspaceFolders: event,
      onDidOpenNotebookDocument: event,
      onDidChangeNotebookDocument: event,
      onDidCloseNotebookDocument: event,
      onDidSaveNotebookDocument: event,
      onDidCreateFiles: event,
      onDidRenameFiles: event,
      onDidDeleteFiles: event,
      onWillCreateFiles: event,
      onWillRenameFiles: event,
      onWillDeleteFiles: event,
      textDocuments: [],
      notebookDocuments: [],
      workspaceFolders: undefined,
      createFileSystemWatcher: () => ({ onDidCreate: event, onDidChange: event, onDidDelete: event, dispose() {} }),
      applyEdit: async (edit) => (record.applied.push(edit), record.applies),
      openTextDocument: async (options) => {
        const document = { languageId: options.language, uri: new Uri('untitled', `Untitled-${record.opened.length + 1}`), version: 1, text: options.content };
        record.opened.push(document);
        return document;
      },
    },
    window: {
      // The user picks the first button offered, if `record.pick` says so.
      showErrorMessage: async (message, ...buttons) => (record.errors.push(message), record.pick ? buttons[0] : undefined),
      showWarningMessage: async (message) => void record.warnings.push(message),
      showInformationMessage: async (message) => void record.informations.push(message),
      createOutputChannel: outputChannel,
      showTextDocument: async (document) => {
        const editor = { document, selection: new Selection(new Position(0, 0), new Position(0, 0)), revealRange() {} };
        record.shown.push(editor);
        vscode.window.activeTextEditor = editor;
        return editor;
      },
      activeTextEditor: undefined,
      visibleTextEditors: [],
      // The pull-diagnostics feature follows the open tabs.
      tabGroups: { all: [], onDidChangeTabs: event, onDidChangeTabGroups: event },
      onDidChangeActiveTextEditor: event,
      onDidChangeVisibleTextEditors: event,
      onDidChangeTextEditorSelection: event,
      activeColorTheme: { kind: 1 },
      setStatusBarMessage: (message) => (record.informations.push(message), new Disposable()),
      createWebviewPanel: (viewType, title, column, options) => {
        const panel = webviewPanel(viewType, options);
        record.panels.push(panel);
        return panel;
      },
      registerWebviewPanelSerializer: (viewType, serializer) => {
        record.serializers.set(viewType, serializer);
        return new Disposable(() => record.serializers.delete(viewType));
      },
    },
    commands: {
      registerCommand: (name, callback) => {
        record.commands.set(name, callback);
        return new Disposable(() => record.commands.delete(name));
      },
      executeCommand: async (...command) => void record.executed.push(command),
    },
  };
  const stand_in = new Proxy(vscode, { get: (target, property) => (property in target ? target[property] : universal()) });
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request === 'vscode' ? stand_in : load.call(this, request, ...rest);
  };
  record.vscode = vscode;
  record.uninstall = () => (Module._load = load);
  return record;
}

/** The compiled extension, loaded afresh so that each test starts from nothing. */
function loadExtension() {
  const main = path.join(root, 'out', 'extension.js');
  for (const cached of Object.keys(require.cache)) {
    if (cached.includes(`${path.sep}vscode-languageclient${path.sep}`) || cached === main) {
      delete require.cache[cached];
    }
  }
  return require(main);
}

/** The extension context VS Code would give: its folder, manifest and a global state. */
function extensionContext(extensionPath = root) {
  const state = new Map();
  return {
    subscriptions: [],
    extensionPath,
    extensionUri: Uri.file(extensionPath),
    extension: { packageJSON: require(path.join(root, 'package.json')) },
    globalState: { get: (key) => state.get(key), update: async (key, value) => void state.set(key, value) },
  };
}

module.exports = { install, loadExtension, extensionContext, root, Uri, Position, webviewPanel, universal };

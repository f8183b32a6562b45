// The CTL-PGN extension in VS Code for the Web (vscode.dev, github.dev, code-server's web
// worker extension host): the language server is ctlpgn-web's WebAssembly module, the same
// protocol layer as the native server's, run by web/js/lsp-worker.js in a web worker that
// the client talks to as vscode-languageclient's browser client talks to any worker. The
// commands, the board panel and the settings are common.ts's, shared with the desktop's entry;
// the workspace survey, which the native server does itself, is survey.ts's.
// Nothing here may use Node: this file is bundled for the browser (scripts/bundle.js).

import * as vscode from 'vscode';
import { DidOpenTextDocumentNotification, LanguageClient, LanguageClientOptions } from 'vscode-languageclient/browser';
import { activateWith, deactivateAll, Host, Made } from './common';
import { refreshBoard } from './board-panel';
import { Survey } from './survey';

/** The worker's script and the module, where scripts/bundle.js puts them in the extension. */
const WORKER_SCRIPT = ['out', 'lsp-worker.js'];
const MODULE = ['out', 'ctlpgn_web.wasm'];
/** The worker's name, which the browser's developer tools (and the real VS Code test) show. */
const WORKER_NAME = 'CTL-PGN language server';
/** How long the worker may take to compile the module and answer: a guard, never a pause. */
const PATIENCE = 60_000;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  await activateWith(context, web);
}

export async function deactivate(): Promise<void> {
  await deactivateAll();
}

const web: Host = {
  make,
  restartOn: [],
  notRunning: 'Reload the window to start it again; the CTL-PGN output channel says what went wrong.',
};

async function make(context: vscode.ExtensionContext, clientOptions: LanguageClientOptions, output: vscode.OutputChannel): Promise<Made | undefined> {
  const started = Date.now();
  let worker: Worker;
  try {
    worker = await startWorker(context.extensionUri, output);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    output.appendLine(`The language server did not start in a web worker: ${reason}`);
    void vscode.window.showErrorMessage(`CTL-PGN: the language server could not start in a web worker: ${reason}`);
    return undefined;
  }
  output.appendLine(`Started the language server in a web worker (${Date.now() - started} ms)`);
  // The id `ctlpgn` makes vscode-languageclient read the trace level from `ctlpgn.trace.server`.
  const client = new LanguageClient('ctlpgn', 'CTL-PGN', clientOptions, worker);
  // After a trap the worker runs a new instance of the module, which knows no documents: each
  // open one is opened again as it stands now, and the board asks again.
  client.onNotification('ctlpgn/restarted', (params: { reason?: unknown }) => {
    output.appendLine(`The language server was restarted after an internal error (${String(params?.reason)}); opening the documents again`);
    const converter = client.code2ProtocolConverter;
    for (const document of vscode.workspace.textDocuments) {
      if (document.languageId === 'ctlpgn') {
        void client.sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri: converter.asUri(document.uri), languageId: document.languageId, version: document.version, text: document.getText() },
        });
      }
    }
    refreshBoard();
  });
  let survey: Survey | undefined;
  return {
    client,
    name: 'the language server in a web worker',
    started: () => {
      survey = new Survey(client, output);
    },
    dispose: () => {
      survey?.dispose();
      worker.terminate();
    },
  };
}

/**
 * A worker running lsp-worker.js with the module started in it. The worker is started from
 * the extension's own address; a host that refuses a worker from there (code-server 4.96's web
 * worker extension host does: the extension's files are on another origin) gets the same
 * script as a blob: URL of this origin.
 */
async function startWorker(extension: vscode.Uri, output: vscode.OutputChannel): Promise<Worker> {
  const script = vscode.Uri.joinPath(extension, ...WORKER_SCRIPT);
  const moduleUri = vscode.Uri.joinPath(extension, ...MODULE);
  let wasm: Uint8Array;
  try {
    wasm = await vscode.workspace.fs.readFile(moduleUri);
  } catch (error) {
    throw new Error(`the module ${moduleUri.toString(true)} could not be read (${describe(error)})`);
  }
  try {
    return await handshake(() => new Worker(script.toString(true), { name: WORKER_NAME }), wasm);
  } catch (error) {
    if (!(error instanceof LoadError)) {
      throw error;
    }
    output.appendLine(`The worker script could not be loaded from ${script.toString(true)} (${error.message}); loading it as a blob: URL`);
  }
  let text: Uint8Array;
  try {
    text = await vscode.workspace.fs.readFile(script);
  } catch (error) {
    throw new Error(`the worker script ${script.toString(true)} could not be read (${describe(error)})`);
  }
  const url = URL.createObjectURL(new Blob([new Uint8Array(text)], { type: 'text/javascript' }));
  try {
    return await handshake(() => new Worker(url, { name: WORKER_NAME }), wasm);
  } finally {
    // The script is loaded once the worker answered (or gave up): the URL is no longer needed.
    URL.revokeObjectURL(url);
  }
}

/** The worker's script could not be loaded or run: another address may do. */
class LoadError extends Error {}

/**
 * Starts a worker, posts it the module and waits for its answer (lsp-worker.js's header):
 * `ready`, or `failed` with why. Until then the handshake is all that passes; the language
 * client takes the worker's messages after it.
 */
function handshake(create: () => Worker, wasm: Uint8Array): Promise<Worker> {
  let worker: Worker;
  try {
    worker = create();
  } catch (error) {
    return Promise.reject(new LoadError(describe(error)));
  }
  return new Promise<Worker>((resolve, reject) => {
    const done = (error?: Error): void => {
      clearTimeout(guard);
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      if (error === undefined) {
        resolve(worker);
      } else {
        worker.terminate();
        reject(error);
      }
    };
    const onMessage = (event: MessageEvent): void => {
      const data = event.data as { ctlpgn?: unknown; message?: unknown } | null;
      if (data?.ctlpgn === 'ready') {
        done();
      } else if (data?.ctlpgn === 'failed') {
        done(new Error(`the module did not start: ${String(data.message)}`));
      }
    };
    // An error event before the answer: the script was refused, not found, or threw.
    const onError = (event: ErrorEvent): void => {
      event.preventDefault();
      done(new LoadError(event.message || 'the worker script did not load'));
    };
    const guard = setTimeout(() => done(new Error(`the worker did not answer within ${PATIENCE / 1000} s`)), PATIENCE);
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    // A copy: after a refused address the bytes go to the next worker too.
    worker.postMessage({ ctlpgn: 'start', wasm: wasm.slice() });
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

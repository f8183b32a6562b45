// What the extension is on every host: the commands (Copy position, Show board, New game), the
// board panel, the settings handed to the language server, and the client's life. Only how the
// server is reached differs: the desktop's entry (extension.ts) starts the native `ctlpgn lsp`,
// the browser's (browser.ts) the same protocol layer compiled to WebAssembly in a web worker.
// Each hands `activateWith` a Host that makes its client.

import * as vscode from 'vscode';
import { BaseLanguageClient, ExecuteCommandRequest, LanguageClientOptions } from 'vscode-languageclient';
import { boardSerializer, refreshBoard, showBoard, viewType } from './board-panel';
import { newGame } from './new-game';

/** A client made by a host, not started yet. */
export interface Made {
  client: BaseLanguageClient;
  /** What was started, for the message if it fails (`ctlpgn lsp`, the web worker). */
  name: string;
  /** What the host adds once the client runs (the browser's workspace survey). */
  started?: () => void;
  /** Ends what the client leaves running once it is stopped (the worker, the survey). */
  dispose?: () => void;
}

/** How one host reaches the language server. */
export interface Host {
  /** A client with these options, or undefined when there is none (the user was told why). */
  make(context: vscode.ExtensionContext, options: LanguageClientOptions, output: vscode.OutputChannel): Promise<Made | undefined>;
  /** The settings whose change needs a new client. */
  restartOn: string[];
  /** What a user can do when the server is not running, for the copy command's message. */
  notRunning: string;
}

let running: Made | undefined;

/** The running client, if any: the board panel asks it at each update. */
function client(): BaseLanguageClient | undefined {
  return running?.client;
}

export async function activateWith(context: vscode.ExtensionContext, host: Host): Promise<void> {
  // One channel for the server's log (`window/logMessage`, its standard error) and, with
  // `ctlpgn.trace.server`, the protocol trace.
  const channel = vscode.window.createOutputChannel('CTL-PGN');
  context.subscriptions.push(
    channel,
    vscode.commands.registerCommand('ctlpgn.copyPosition', () => copyPosition(host)),
    vscode.commands.registerCommand('ctlpgn.showBoard', () => showBoard(context, client)),
    vscode.commands.registerCommand('ctlpgn.newGame', () => newGame(() => showBoard(context, client))),
    vscode.window.registerWebviewPanelSerializer(viewType, boardSerializer(context, client)),
    vscode.workspace.onDidChangeConfiguration(async (change) => {
      if (host.restartOn.some((section) => change.affectsConfiguration(section))) {
        await stop();
        await start(context, host, channel);
      }
    }),
  );
  await start(context, host, channel);
}

export async function deactivateAll(): Promise<void> {
  await stop();
}

/** The `ctlpgn` settings the server reads, as `initializationOptions`. */
export function settings(): object {
  const configuration = vscode.workspace.getConfiguration('ctlpgn');
  return {
    rules: { enable: configuration.get<boolean>('rules.enable', false) },
    diagnostics: { workspace: configuration.get<boolean>('diagnostics.workspace', false) },
    format: {
      separators: configuration.get<string>('format.separators', 'keep'),
      ellipsis: configuration.get<string>('format.ellipsis', 'keep'),
    },
    // VS Code's hovers render Markdown images with data: URIs: the server draws their boards
    // as SVG images.
    hover: { images: true },
  };
}

/** The client's options, the same on every host. */
function clientOptions(channel: vscode.OutputChannel): LanguageClientOptions {
  return {
    // By language, whatever the scheme: file: on the desktop, vscode-vfs: on github.dev,
    // untitled: for New game.
    documentSelector: [{ language: 'ctlpgn' }],
    initializationOptions: settings(),
    outputChannel: channel,
    traceOutputChannel: channel,
    // Changes of the `ctlpgn` settings reach the server as `didChangeConfiguration`; the
    // client also answers the server's `workspace/configuration` requests for the section.
    synchronize: { configurationSection: 'ctlpgn' },
  };
}

async function start(context: vscode.ExtensionContext, host: Host, channel: vscode.OutputChannel): Promise<void> {
  const made = await host.make(context, clientOptions(channel), channel);
  if (made === undefined) {
    return;
  }
  running = made;
  try {
    await made.client.start();
    made.started?.();
    refreshBoard();
  } catch (error) {
    running = undefined;
    made.dispose?.();
    void vscode.window.showErrorMessage(`CTL-PGN: ${made.name} did not start: ${String(error)}`);
  }
}

async function stop(): Promise<void> {
  const stopped = running;
  running = undefined;
  if (stopped !== undefined) {
    try {
      await stopped.client.stop();
    } finally {
      stopped.dispose?.();
    }
  }
}

/** Copies the PDTL of the position at the cursor, as the server computes it. */
async function copyPosition(host: Host): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== 'ctlpgn') {
    void vscode.window.showInformationMessage('CTL-PGN: open a .ctl-pgn file and put the cursor on a half-move.');
    return;
  }
  const current = client();
  if (current === undefined || !current.isRunning()) {
    void vscode.window.showErrorMessage(`CTL-PGN: the language server is not running. ${host.notRunning}`);
    return;
  }
  const converter = current.code2ProtocolConverter;
  const pdtl: unknown = await current.sendRequest(ExecuteCommandRequest.type, {
    command: 'ctlpgn.positionAt',
    arguments: [converter.asUri(editor.document.uri), converter.asPosition(editor.selection.active)],
  });
  if (typeof pdtl !== 'string') {
    void vscode.window.showInformationMessage('CTL-PGN: no position at the cursor; put it on a half-move that could be replayed.');
    return;
  }
  await vscode.env.clipboard.writeText(pdtl);
  void vscode.window.showInformationMessage(`CTL-PGN: copied PDTL ${pdtl}`);
}


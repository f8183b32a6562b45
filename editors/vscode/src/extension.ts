// The CTL-PGN extension: finds a working `ctlpgn` binary and starts `ctlpgn lsp` for `ctlpgn`
// documents, and adds the command that copies the position at the cursor, the board panel
// that plays (board-panel.ts) and the command that starts a new game (new-game.ts). Everything else
// (diagnostics, hover, completion, formatting, folding, symbols) is the language server's,
// negotiated by vscode-languageclient.

import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import { boardSerializer, refreshBoard, showBoard, viewType } from './board-panel';
import { newGame } from './new-game';
import { Candidate, describeRejected, findServer } from './server';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;

const install = 'Install the extension for your platform (it carries the server), or `cargo install --locked --path server` from the ctlpgn repository, or set `ctlpgn.server.path`.';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // One channel for the server's log (`window/logMessage`, its standard error) and, with
  // `ctlpgn.trace.server`, the protocol trace.
  output = vscode.window.createOutputChannel('CTL-PGN');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('ctlpgn.copyPosition', copyPosition),
    vscode.commands.registerCommand('ctlpgn.showBoard', () => showBoard(context, () => client)),
    vscode.commands.registerCommand('ctlpgn.newGame', () => newGame(() => showBoard(context, () => client))),
    vscode.window.registerWebviewPanelSerializer(viewType, boardSerializer(context, () => client)),
    vscode.workspace.onDidChangeConfiguration(async (change) => {
      if (change.affectsConfiguration('ctlpgn.server.path')) {
        await stop();
        await start(context);
      }
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await stop();
}

/** The `ctlpgn` settings the server reads, as `initializationOptions`. */
function settings(): object {
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

/** The version this extension was built with; the server it carries has the same. */
function extensionVersion(context: vscode.ExtensionContext): string {
  return String(context.extension?.packageJSON?.version ?? '');
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const configured = vscode.workspace.getConfiguration('ctlpgn').get<string>('server.path', '');
  const found = findServer({ configured, extensionPath: context.extensionPath });
  if (found.server === undefined) {
    void offerSetting(`CTL-PGN: no working language server \`ctlpgn\` was found. Tried: ${describeRejected(found.rejected)}. ${install}`);
    return;
  }
  const server: Candidate & { version: string } = found.server;
  const configuredRejected = found.rejected.find(({ candidate }) => candidate.source === 'ctlpgn.server.path');
  if (configuredRejected !== undefined) {
    void offerSetting(`CTL-PGN: \`ctlpgn.server.path\` does not work (${configuredRejected.reason}); using ${server.source} ${server.path} instead.`);
  }
  const expected = extensionVersion(context);
  if (expected !== '' && server.version !== expected) {
    // Once per pair of versions: a user who keeps an older server on purpose is told once.
    const key = `ctlpgn.versionWarned.${server.path}.${server.version}.${expected}`;
    if (context.globalState?.get(key) !== true) {
      void context.globalState?.update(key, true);
      void vscode.window.showWarningMessage(`CTL-PGN: the language server ${server.path} is version ${server.version}, the extension ${expected}; some features may differ.`);
    }
  }
  output?.appendLine(`Starting ${server.path} lsp (${server.source}, version ${server.version})`);
  const serverOptions: ServerOptions = { command: server.path, args: ['lsp'] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'ctlpgn' }],
    initializationOptions: settings(),
    outputChannel: output,
    traceOutputChannel: output,
    // Changes of the `ctlpgn` settings reach the server as `didChangeConfiguration`; the
    // client also answers the server's `workspace/configuration` requests for the section.
    synchronize: { configurationSection: 'ctlpgn' },
  };
  // The id `ctlpgn` makes vscode-languageclient read the trace level from `ctlpgn.trace.server`.
  client = new LanguageClient('ctlpgn', 'CTL-PGN', serverOptions, clientOptions);
  try {
    await client.start();
    refreshBoard();
  } catch (error) {
    client = undefined;
    void vscode.window.showErrorMessage(`CTL-PGN: \`${server.path} lsp\` did not start: ${String(error)}`);
  }
}

/** An error notification with a button that opens the `ctlpgn.server.path` setting. */
async function offerSetting(message: string): Promise<void> {
  const open = 'Open setting';
  const chosen = await vscode.window.showErrorMessage(message, open);
  if (chosen === open) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'ctlpgn.server.path');
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    await running.stop();
  }
}

/** Copies the PDTL of the position at the cursor, as the server computes it. */
async function copyPosition(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== 'ctlpgn') {
    void vscode.window.showInformationMessage('CTL-PGN: open a .ctl-pgn file and put the cursor on a half-move.');
    return;
  }
  if (client === undefined || !client.isRunning()) {
    void vscode.window.showErrorMessage(`CTL-PGN: the language server is not running. ${install}`);
    return;
  }
  const converter = client.code2ProtocolConverter;
  const pdtl: unknown = await client.sendRequest(ExecuteCommandRequest.type, {
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

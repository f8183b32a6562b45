// The CTL-PGN extension: starts `ctlpgn lsp` for `ctlpgn` documents and adds the command
// that copies the position at the cursor. Everything else (diagnostics, hover, completion,
// formatting, folding, symbols) is the language server's, negotiated by vscode-languageclient.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

const install = 'Install it with `cargo install --locked --path server` from the ctlpgn repository, or set `ctlpgn.server.path`.';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand('ctlpgn.copyPosition', copyPosition),
    vscode.workspace.onDidChangeConfiguration(async (change) => {
      if (change.affectsConfiguration('ctlpgn.server.path')) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}

/** The `ctlpgn` settings the server reads, as `initializationOptions`. */
function settings(): object {
  const configuration = vscode.workspace.getConfiguration('ctlpgn');
  return {
    rules: { enable: configuration.get<boolean>('rules.enable', false) },
    format: {
      separators: configuration.get<string>('format.separators', 'keep'),
      ellipsis: configuration.get<string>('format.ellipsis', 'keep'),
    },
  };
}

function isFile(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/**
 * The server binary: the setting when it is set, else `ctlpgn` on PATH, else in cargo's
 * folder of installed binaries (which an editor started from a desktop often lacks on PATH).
 * Undefined, after telling the user why, when there is none.
 */
function serverBinary(): string | undefined {
  const configured = vscode.workspace.getConfiguration('ctlpgn').get<string>('server.path', '').trim();
  if (configured !== '') {
    const expanded = configured.startsWith('~') ? path.join(os.homedir(), configured.slice(1)) : configured;
    if (isFile(expanded)) {
      return expanded;
    }
    void vscode.window.showErrorMessage(`CTL-PGN: \`ctlpgn.server.path\` is "${configured}", but there is no such file. ${install}`);
    return undefined;
  }
  const name = process.platform === 'win32' ? 'ctlpgn.exe' : 'ctlpgn';
  const folders = (process.env.PATH ?? '').split(path.delimiter).filter((folder) => folder !== '');
  folders.push(path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'), 'bin'));
  const found = folders.map((folder) => path.join(folder, name)).find(isFile);
  if (found === undefined) {
    void vscode.window.showErrorMessage(`CTL-PGN: the language server \`ctlpgn\` was not found on PATH. ${install}`);
  }
  return found;
}

async function start(): Promise<void> {
  const command = serverBinary();
  if (command === undefined) {
    return;
  }
  const serverOptions: ServerOptions = { command, args: ['lsp'] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'ctlpgn' }],
    initializationOptions: settings(),
    // Changes of the `ctlpgn` settings reach the server as `didChangeConfiguration`; the
    // client also answers the server's `workspace/configuration` requests for the section.
    synchronize: { configurationSection: 'ctlpgn' },
  };
  // The id `ctlpgn` makes vscode-languageclient read the trace level from `ctlpgn.trace.server`.
  client = new LanguageClient('ctlpgn', 'CTL-PGN', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    void vscode.window.showErrorMessage(`CTL-PGN: \`${command} lsp\` did not start: ${String(error)}`);
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

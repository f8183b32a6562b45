// The CTL-PGN extension on the desktop (and in a remote's extension host): finds a working
// `ctlpgn` binary and starts `ctlpgn lsp` for `ctlpgn` documents. The commands, the board
// panel and the settings are common.ts's, shared with the browser's entry (browser.ts).
// Everything else (diagnostics, hover, completion, formatting, folding, symbols) is the
// language server's, negotiated by vscode-languageclient.

import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import { activateWith, deactivateAll, Host, Made } from './common';
import { Candidate, describeRejected, findServer } from './server';

const install = 'Install the extension for your platform (it carries the server), or `cargo install --locked --path server` from the ctlpgn repository, or set `ctlpgn.server.path`.';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  await activateWith(context, native);
}

export async function deactivate(): Promise<void> {
  await deactivateAll();
}

const native: Host = {
  make,
  restartOn: ['ctlpgn.server.path'],
  notRunning: install,
};

/** The version this extension was built with; the server it carries has the same. */
function extensionVersion(context: vscode.ExtensionContext): string {
  return String(context.extension?.packageJSON?.version ?? '');
}

async function make(context: vscode.ExtensionContext, clientOptions: LanguageClientOptions, output: vscode.OutputChannel): Promise<Made | undefined> {
  const configured = vscode.workspace.getConfiguration('ctlpgn').get<string>('server.path', '');
  const found = await findServer({ configured, extensionPath: context.extensionPath });
  if (found.server === undefined) {
    void offerSetting(`CTL-PGN: no working language server \`ctlpgn\` was found. Tried: ${describeRejected(found.rejected)}. ${install}`);
    return undefined;
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
  output.appendLine(`Starting ${server.path} lsp (${server.source}, version ${server.version})`);
  const serverOptions: ServerOptions = { command: server.path, args: ['lsp'] };
  // The id `ctlpgn` makes vscode-languageclient read the trace level from `ctlpgn.trace.server`.
  return { client: new LanguageClient('ctlpgn', 'CTL-PGN', serverOptions, clientOptions), name: `\`${server.path} lsp\`` };
}

/** An error notification with a button that opens the `ctlpgn.server.path` setting. */
async function offerSetting(message: string): Promise<void> {
  const open = 'Open setting';
  const chosen = await vscode.window.showErrorMessage(message, open);
  if (chosen === open) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'ctlpgn.server.path');
  }
}

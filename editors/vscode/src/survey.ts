// The workspace survey in VS Code for the Web (`ctlpgn.diagnostics.workspace`): the language
// server in the worker reads no files, so the extension finds the workspace's records
// (workspace.findFiles) and reads them through VS Code's file system, which serves github.dev's
// repositories as well as a disk; the worker's session checks each text (`ctlpgn/checkText`)
// without opening it. The problems of a closed record go to a collection of their own; an open
// record's come from the server's pull as usual, so its entry here is dropped while it is open.
// Bounded: the first MOST_FILES records, none larger than MOST_BYTES.

import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';

/** At most this many records are surveyed (the rest are named in the output channel). */
export const MOST_FILES = 1000;
/** A record larger than this is left out of the survey (it is checked once opened). */
export const MOST_BYTES = 4 * 1024 * 1024;

const GLOB = '**/*.ctl-pgn';

interface Checked {
  uri: string;
  diagnostics: unknown[];
}

export class Survey implements vscode.Disposable {
  private readonly problems = vscode.languages.createDiagnosticCollection('ctlpgn-workspace');
  private readonly subscriptions: vscode.Disposable[] = [];
  private watcher: vscode.Disposable | undefined;
  /** Bumped at each start and stop: a check that began before drops its answer. */
  private generation = 0;

  constructor(
    private readonly client: BaseLanguageClient,
    private readonly output: vscode.OutputChannel,
  ) {
    this.subscriptions.push(
      this.problems,
      vscode.workspace.onDidChangeConfiguration((change) => {
        if (change.affectsConfiguration('ctlpgn.diagnostics.workspace')) {
          void this.restart();
        }
      }),
      vscode.workspace.onDidOpenTextDocument((document) => this.problems.delete(document.uri)),
      // A record closed shows its problems on the disk again (the pull's are cleared).
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (this.watcher !== undefined && surveyed(document.uri)) {
          void this.check(document.uri, this.generation);
        }
      }),
    );
    void this.restart();
  }

  dispose(): void {
    this.generation += 1;
    this.watcher?.dispose();
    this.subscriptions.forEach((subscription) => subscription.dispose());
  }

  /** Starts the survey afresh when the setting is on, else clears it. */
  private async restart(): Promise<void> {
    this.generation += 1;
    const generation = this.generation;
    this.watcher?.dispose();
    this.watcher = undefined;
    this.problems.clear();
    if (!vscode.workspace.getConfiguration('ctlpgn').get<boolean>('diagnostics.workspace', false)) {
      return;
    }
    const watcher = vscode.workspace.createFileSystemWatcher(GLOB);
    watcher.onDidCreate((uri) => void this.check(uri, generation));
    watcher.onDidChange((uri) => void this.check(uri, generation));
    watcher.onDidDelete((uri) => this.problems.delete(uri));
    this.watcher = watcher;
    // `undefined`: the user's `files.exclude` leaves files out, as the Explorer does.
    const found = await vscode.workspace.findFiles(GLOB, undefined, MOST_FILES + 1);
    if (found.length > MOST_FILES) {
      this.output.appendLine(`The workspace survey checks the first ${MOST_FILES} records found; open the others to check them.`);
    }
    // One at a time: the worker answers in order, and the editor's requests go between.
    for (const uri of found.slice(0, MOST_FILES)) {
      if (generation !== this.generation) {
        return;
      }
      await this.check(uri, generation);
    }
  }

  /** Checks one record as it is on the disk, unless it is open (the pull has it). */
  private async check(uri: vscode.Uri, generation: number): Promise<void> {
    if (isOpen(uri)) {
      return;
    }
    try {
      const { size } = await vscode.workspace.fs.stat(uri);
      if (size > MOST_BYTES) {
        this.problems.delete(uri);
        this.output.appendLine(`The workspace survey leaves out ${uri.toString(true)}: ${size} bytes, more than ${MOST_BYTES}.`);
        return;
      }
      const text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
      const checked = (await this.client.sendRequest('ctlpgn/checkText', { uri: this.client.code2ProtocolConverter.asUri(uri), text })) as Checked;
      const diagnostics = await this.client.protocol2CodeConverter.asDiagnostics(checked.diagnostics as never[]);
      // Opened, stopped or restarted meanwhile: this answer is no longer the file's.
      if (generation === this.generation && !isOpen(uri)) {
        this.problems.set(uri, diagnostics);
      }
    } catch (error) {
      // Gone meanwhile, unreadable, or the server stopped: no problems to show for it.
      if (generation === this.generation) {
        this.problems.delete(uri);
      }
      this.output.appendLine(`The workspace survey could not check ${uri.toString(true)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Whether `uri` is one of the records the survey covers: a `.ctl-pgn` file in a workspace folder. */
function surveyed(uri: vscode.Uri): boolean {
  return uri.path.endsWith('.ctl-pgn') && vscode.workspace.getWorkspaceFolder(uri) !== undefined;
}

function isOpen(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.workspace.textDocuments.some((document) => document.uri.toString() === key);
}

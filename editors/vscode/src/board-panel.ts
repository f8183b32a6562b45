// The board panel: a webview beside the editor that shows the position at the cursor of the
// active CTL-PGN editor, asked of the server with the custom request `ctlpgn/board`, with the
// move list of the line of play there. Keys and clicks in the panel move the editor's cursor
// to a half-move, so the editor stays the one place that says where the user is. A half-move
// played on the board (clicks on a piece and a mark) is asked of the server (`ctlpgn/play`),
// which answers an edit of the record: the panel applies it and puts the cursor on the new
// half-move, so the text stays the record and Ctrl+Z takes the move back. A play names the
// version the board's answer stands in, and the server refuses it when the text changed since.
// The page is the web playground's board front-end (web/js/board-view.js), bundled with the
// small script that carries its wishes here as messages (webview/board.js).

import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { placeOfPly } from '../../../web/js/board-line.js';

/** The webview's type, also the `onWebviewPanel:` activation event's. */
export const viewType = 'ctlpgn.board';

/** What the panel keeps across a reload (the webview's state). */
interface State {
  flip?: boolean;
}

/** A half-move of the answer's line, with its range in protocol coordinates. */
interface LineHalfMove {
  ply: number;
  range: ProtocolRange;
}

/** The answer to `ctlpgn/board` (see docs/language-server.md): `line` is a window of the line of play around `ply`. */
interface BoardAnswer {
  /** The version of the document the place was read in, which a play names. */
  version?: number;
  ply: number;
  line: LineHalfMove[];
  lineLength?: number;
  lineFirst?: LineHalfMove | null;
  lineLast?: LineHalfMove | null;
  [key: string]: unknown;
}

/** A place of a document: what a board answer was asked for, and what a play is asked at. */
interface Place {
  document: vscode.TextDocument;
  /** The version the server read the position in (the answer's), else the editor's. */
  version: number;
  position: { line: number; character: number };
}

/** A protocol range. */
interface ProtocolRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** The answer to `ctlpgn/play`: a versioned edit of one document, and where the half-move stands after it. */
interface PlayAnswer {
  edit: { documentChanges: { textDocument: { uri: string; version: number }; edits: { range: ProtocolRange; newText: string }[] }[] };
  range: ProtocolRange;
}

let current: BoardPanel | undefined;

/** Opens the panel beside the editor, or shows the open one. */
export function showBoard(context: vscode.ExtensionContext, client: () => BaseLanguageClient | undefined): void {
  if (current !== undefined) {
    current.panel.reveal(vscode.ViewColumn.Beside, true);
    void current.update();
    return;
  }
  const panel = vscode.window.createWebviewPanel(viewType, 'CTL-PGN board', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, options(context));
  current = new BoardPanel(panel, context, client, {});
}

/** Restores the panel VS Code kept across a reload. */
export function boardSerializer(context: vscode.ExtensionContext, client: () => BaseLanguageClient | undefined): vscode.WebviewPanelSerializer {
  return {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
      panel.webview.options = options(context);
      current?.panel.dispose();
      current = new BoardPanel(panel, context, client, (state ?? {}) as State);
    },
  };
}

/** Asks the open panel, if any, to show the position at the cursor again (the server started). */
export function refreshBoard(): void {
  void current?.update();
}

function options(context: vscode.ExtensionContext): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'media'), vscode.Uri.joinPath(context.extensionUri, 'out', 'webview')],
    retainContextWhenHidden: false,
  };
}

class BoardPanel {
  /** The CTL-PGN editor the panel follows: the active one, or the last one active. */
  private editor: vscode.TextEditor | undefined;
  private flip: boolean;
  private answer: BoardAnswer | undefined;
  /** Where `answer` stands. */
  private place: Place | undefined;
  private pending: ReturnType<typeof setTimeout> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    context: vscode.ExtensionContext,
    private readonly client: () => BaseLanguageClient | undefined,
    state: State,
  ) {
    this.flip = state.flip === true;
    this.editor = followed(vscode.window.activeTextEditor) ?? vscode.window.visibleTextEditors.find((editor) => followed(editor) !== undefined);
    panel.webview.html = page(panel.webview, context.extensionUri);
    this.subscriptions.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message) => this.receive(message)),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (followed(editor) !== undefined) {
          this.editor = editor;
          this.schedule();
        }
      }),
      vscode.window.onDidChangeTextEditorSelection((change) => {
        if (followed(change.textEditor) !== undefined) {
          this.editor = change.textEditor;
          this.schedule();
        }
      }),
      vscode.workspace.onDidChangeTextDocument((change) => {
        if (change.document === this.editor?.document) {
          this.schedule();
        }
      }),
    );
  }

  /** Updates soon: a burst of cursor moves (a held arrow key) asks once. */
  private schedule(): void {
    if (this.pending !== undefined) {
      clearTimeout(this.pending);
    }
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.update();
    }, 30);
  }

  /** Asks the server for the position at the followed editor's cursor and shows it. */
  async update(): Promise<void> {
    const client = this.client();
    const editor = this.editor;
    if (editor === undefined) {
      void this.panel.webview.postMessage({ type: 'empty', reason: 'Open a .ctl-pgn file: the board follows its cursor.' });
      return;
    }
    if (client === undefined || !client.isRunning()) {
      void this.panel.webview.postMessage({ type: 'empty', reason: 'The CTL-PGN language server is not running.' });
      return;
    }
    const converter = client.code2ProtocolConverter;
    const dark = vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.Dark || vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.HighContrast;
    const place: Place = { document: editor.document, version: editor.document.version, position: converter.asPosition(editor.selection.active) };
    try {
      const answer = (await client.sendRequest('ctlpgn/board', {
        textDocument: { uri: converter.asUri(editor.document.uri) },
        position: place.position,
        flip: this.flip,
        theme: dark ? 'dark' : 'light',
      })) as BoardAnswer | null;
      this.answer = answer ?? undefined;
      this.place = answer === null ? undefined : { ...place, version: typeof answer.version === 'number' ? answer.version : place.version };
      void this.panel.webview.postMessage(answer === null ? { type: 'empty', reason: 'No record here.' } : { type: 'board', answer, flip: this.flip });
    } catch (error) {
      void this.panel.webview.postMessage({ type: 'empty', reason: `The server could not answer: ${String(error)}` });
    }
  }

  /** A message from the page: go to a half-move, play one, flip the board, copy the PDTL. */
  private async receive(message: { type?: string; ply?: number; pdtl?: string; move?: string }): Promise<void> {
    if (message.type === 'goto' && typeof message.ply === 'number') {
      await this.goTo(message.ply);
    } else if (message.type === 'play' && typeof message.move === 'string') {
      await this.play(message.move);
    } else if (message.type === 'flip') {
      this.flip = !this.flip;
      await this.update();
    } else if (message.type === 'copy' && typeof message.pdtl === 'string') {
      await vscode.env.clipboard.writeText(message.pdtl);
      void vscode.window.setStatusBarMessage(`CTL-PGN: copied PDTL ${message.pdtl}`, 3000);
    } else if (message.type === 'ready') {
      await this.update();
    }
  }

  /**
   * Moves the followed editor's cursor onto the half-move of `ply` (0: before the first): one
   * of the answer's window of the line, or its first or last half-move (Home, End).
   */
  private async goTo(ply: number): Promise<void> {
    const editor = this.editor;
    const protocol = this.answer === undefined ? null : placeOfPly(this.answer, ply);
    if (editor === undefined || protocol === null) {
      return;
    }
    const client = this.client();
    const position = client?.protocol2CodeConverter.asPosition(protocol) ?? new vscode.Position(protocol.line, protocol.character);
    editor.selection = new vscode.Selection(position, position);
    editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    await this.update();
  }

  /**
   * Plays `move` (a text of the answer's `moves`) where the board stands: the server's edit is
   * applied to that document, as it was when the board was asked for, and the cursor goes onto
   * the half-move (the panel follows it). Nothing is changed when the document changed since,
   * or the server refuses: the page is told why.
   */
  private async play(move: string): Promise<void> {
    const client = this.client();
    const place = this.place;
    const editor = this.editor;
    if (client === undefined || place === undefined || editor === undefined || editor.document !== place.document) {
      await this.update();
      return;
    }
    let answer: PlayAnswer | null;
    try {
      answer = (await client.sendRequest('ctlpgn/play', {
        textDocument: { uri: client.code2ProtocolConverter.asUri(place.document.uri), version: place.version },
        position: place.position,
        move,
      })) as PlayAnswer | null;
    } catch (error) {
      void this.panel.webview.postMessage({ type: 'refused', reason: error instanceof Error ? error.message : String(error) });
      if (isContentModified(error)) {
        // The text changed since the board was asked for: the board shows the text as it is.
        await this.update();
      }
      return;
    }
    if (answer === null) {
      await this.update();
      return;
    }
    const converter = client.protocol2CodeConverter;
    const change = answer.edit.documentChanges[0];
    const edits = change?.edits ?? [];
    if (edits.length > 0) {
      // The edit is for the text the server answered about; a document edited since is left as it is.
      if (place.document.version !== change.textDocument.version) {
        void this.panel.webview.postMessage({ type: 'refused', reason: 'The record changed meanwhile: play again.' });
        await this.update();
        return;
      }
      const edit = new vscode.WorkspaceEdit();
      for (const one of edits) {
        edit.replace(place.document.uri, converter.asRange(one.range), one.newText);
      }
      if (!(await vscode.workspace.applyEdit(edit))) {
        void this.panel.webview.postMessage({ type: 'refused', reason: 'VS Code did not apply the move: play again.' });
        await this.update();
        return;
      }
    }
    const end = converter.asPosition(answer.range.end);
    editor.selection = new vscode.Selection(end, end);
    editor.revealRange(converter.asRange(answer.range), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    await this.update();
  }

  private dispose(): void {
    if (current === this) {
      current = undefined;
    }
    if (this.pending !== undefined) {
      clearTimeout(this.pending);
    }
    this.subscriptions.forEach((subscription) => subscription.dispose());
  }
}

/** Whether a request's error is the protocol's ContentModified (-32801): the server refused a stale place. */
function isContentModified(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === -32801;
}

/** The editor if it shows a CTL-PGN document. */
function followed(editor: vscode.TextEditor | undefined): vscode.TextEditor | undefined {
  return editor?.document.languageId === 'ctlpgn' ? editor : undefined;
}

/**
 * The page: no remote content; its script (with a nonce), the board front-end bundled, fills
 * the body; its stylesheet from `media/` gives the board VS Code's theme.
 */
function page(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = makeNonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'out', 'webview', 'board.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'board.css'));
  // The script adds the board front-end's own <style>, and the board's SVG carries one: each
  // is given the nonce before it is inserted.
  const policy = `default-src 'none'; img-src ${webview.cspSource} data:; style-src ${webview.cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>CTL-PGN board</title>
</head>
<body>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}

function makeNonce(): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let nonce = '';
  for (let index = 0; index < 32; index += 1) {
    nonce += letters.charAt(Math.floor(Math.random() * letters.length));
  }
  return nonce;
}

// `CTL-PGN: New game`: a new untitled CTL-PGN document holding a record ready to be played on
// the board, the board panel open beside it. The text and the cursor's line are the web
// playground's New game too (web/js/new-game.js, bundled in).

import * as vscode from 'vscode';
import { newGameText, startLine } from '../../../web/js/new-game.js';

/** Opens the new game and puts the cursor at its start; `showBoard` then opens the panel. */
export async function newGame(showBoard: () => void): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: 'ctlpgn', content: newGameText(new Date()) });
  const editor = await vscode.window.showTextDocument(document);
  const start = new vscode.Position(startLine, 0);
  editor.selection = new vscode.Selection(start, start);
  showBoard();
}

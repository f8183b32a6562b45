// `CTL-PGN: New game`: a new untitled CTL-PGN document holding a record ready to be played on
// the board: the seven-tag roster after `Variant` (handbook §10.3), today's date, the result
// `*` on its line, the cursor on the blank line between them (the record's start), and the
// board panel open beside it.

import * as vscode from 'vscode';

/** The text of a new game dated `today` (local date, `YYYY-MM-DD` as §10.2 writes dates). */
export function newGameText(today: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  const date = `${today.getFullYear()}-${two(today.getMonth() + 1)}-${two(today.getDate())}`;
  return [
    '[Variant "C\'escacs"]',
    '[Event "?"]',
    '[Site "?"]',
    `[Date "${date}"]`,
    '[Round "?"]',
    '[White "?"]',
    '[Black "?"]',
    '[Result "*"]',
    '',
    '*',
    '',
  ].join('\n');
}

/** The line of the new game where the cursor is put: the blank line before the result. */
export const startLine = 8;

/** Opens the new game and puts the cursor at its start; `showBoard` then opens the panel. */
export async function newGame(showBoard: () => void): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: 'ctlpgn', content: newGameText(new Date()) });
  const editor = await vscode.window.showTextDocument(document);
  const start = new vscode.Position(startLine, 0);
  editor.selection = new vscode.Selection(start, start);
  showBoard();
}

// New game: a record ready to be played on the board, as the VS Code command writes it
// (editors/vscode/src/new-game.ts): the seven-tag roster after `Variant` (handbook §10.3),
// today's date, the result `*` on its line, and the cursor on the blank line between them.

/** The text of a new game dated `today` (local date, `YYYY-MM-DD` as §10.2 writes dates). */
export function newGameText(today) {
  const two = (value) => String(value).padStart(2, '0');
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

/** The 0-based line of the new game where the cursor is put: the blank line before the result. */
export const startLine = 8;

// New game: a record ready to be played on the board, the one text both hosts start from (the
// playground's New game button, VS Code's `CTL-PGN: New game`, whose bundle takes this file):
// the seven-tag roster after `Variant` (handbook §10.3), today's date, the result `*` on its
// line, and the cursor on the blank line between them (the record's start).

/**
 * The text of a new game dated `today` (local date, `YYYY-MM-DD` as §10.2 writes dates).
 * @param {Date} today
 * @returns {string}
 */
export function newGameText(today) {
  /** @param {number} value */
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

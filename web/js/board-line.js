// The line of play of a board answer (`ctlpgn/board`, or the module's `board`): how long it is
// and where a cursor goes for one of its half-moves. The answer lists a window of the line
// around the place (at most 200 half-moves) with the line's first and last half-moves besides,
// so the hosts that move a cursor (VS Code's panel, the playground) and the board view all read
// it here, one way.

/**
 * @typedef {{ line: number, character: number }} Place
 * @typedef {{ ply: number, range: { start: Place, end: Place } }} LineHalfMove
 * @typedef {{ ply: number, line: LineHalfMove[], lineLength?: number,
 *   lineFirst?: LineHalfMove | null, lineLast?: LineHalfMove | null }} BoardLine
 */

/**
 * How many half-moves the whole line of play has (`line` may list a window of them).
 * @param {BoardLine} answer
 * @returns {number}
 */
export function lineLength(answer) {
  return typeof answer.lineLength === 'number' ? answer.lineLength : answer.line.length;
}

/**
 * Where a cursor goes for the half-move of `ply` (0: before the first; beyond the line: its
 * last): the start of that half-move, or for 0 the start of the first half-move's line. Null
 * when the line has no half-move, or the answer does not list that one (outside its window and
 * not an end of the line).
 * @param {BoardLine} answer
 * @param {number} ply
 * @returns {Place | null}
 */
export function placeOfPly(answer, ply) {
  /** @type {LineHalfMove[]} */
  const known = [];
  for (const halfMove of [answer.lineFirst, ...answer.line, answer.lineLast]) {
    if (halfMove) {
      known.push(halfMove);
    }
  }
  if (known.length === 0) {
    return null;
  }
  const target = Math.max(0, Math.min(ply, lineLength(answer)));
  if (target === 0) {
    const first = known.reduce((earliest, halfMove) => (halfMove.ply < earliest.ply ? halfMove : earliest));
    return { line: first.range.start.line, character: 0 };
  }
  const found = known.find((halfMove) => halfMove.ply === target);
  return found === undefined ? null : found.range.start;
}

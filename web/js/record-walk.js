// A record's tree of play for a viewer: its tags, and its half-moves in lines of play
// (the main line, variations inside it) with the comments between them, each half-move with
// its place in the text so that the module can draw the position after it. A reading for
// display only, lenient where the record is broken: the checking is the module's.
//
// What a variation replaces follows the handbook (§11.2): it is attached to the move line
// before it in the enclosing line; `N. X` is an alternative to White's half-move there,
// `N. …, Y` to Black's. The walk is one pass over the lines with an explicit stack of the open
// variations, however deep they nest.

const RESULT = /^(?:3-0|2-1|0-3|1-2|1-1|\*)$/;
const ANNOTATION = /^(?:\?\?|\?!|!!|!\?|[?!◇:]|\(=\)|\$\d+)+$/;
const TAG = /^\s*\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/;
/** One token of a move line: a draw offer, a parenthesis with its label, a number, an ellipsis, a comma, or a word. */
const TOKEN = /\s+|\((?!=\))(?:\$\[\d*\]?)?|\)|\d+\.(?!\d)|1\?|…|\.\.\.|,|(?:[^\s,()]|\(=\))+/gy;

/** A line of play: its half-moves and what stands between them, in the order written. */
class Line {
  constructor(parent, label) {
    /** The line this one is a variation of (null for the main line). */
    this.parent = parent;
    /** The half-move this variation is an alternative to (null for the main line, or when not found). */
    this.replaces = null;
    this.label = label;
    /** Half-moves, comments and variations: `{move}`, `{comment}`, `{variation}`. */
    this.items = [];
    this.moves = [];
    /** The last move line read in this line: its White and Black half-moves. */
    this.moveLine = { white: null, black: null };
  }
}

/**
 * The record starting at the first line of `text` (up to the next `[Variant` line after its
 * movetext): `{tags, main, moves, end}`: tags by name (values unescaped), the main line, every
 * half-move in text order, and the 0-based line where the record ends.
 */
export function readRecord(text) {
  const lines = text.split(/\r\n|\r|\n/);
  const tags = new Map();
  const main = new Line(null, null);
  const moves = [];
  const stack = [main];
  let inComment = null;
  let movetext = false;
  let number = null;
  let side = 'white';
  let ended = false;
  let end = lines.length;

  const top = () => stack[stack.length - 1];
  const lastMove = () => (moves.length > 0 ? moves[moves.length - 1] : null);

  for (let index = 0; index < lines.length; index += 1) {
    const lineText = lines[index];
    if (inComment !== null) {
      const close = lineText.indexOf('}');
      inComment.text += '\n' + (close < 0 ? lineText : lineText.slice(0, close));
      if (close >= 0) {
        inComment.text = inComment.text.trim();
        inComment = null;
      }
      continue;
    }
    const content = lineText.replace(/^[\s.]*/, '');
    const indent = lineText.length - content.length;
    if (index > 0 && /^\s*\[Variant\s/.test(lineText) && (movetext || tags.size > 0)) {
      end = index;
      break;
    }
    if (content === '') {
      continue;
    }
    if (!movetext && content.startsWith('[')) {
      const tag = TAG.exec(lineText);
      if (tag) {
        tags.set(tag[1], tag[2].replace(/\\(["\\])/g, '$1'));
      }
      continue;
    }
    movetext = true;
    if (content.startsWith('{')) {
      const comment = { text: '' };
      top().items.push({ comment });
      const close = content.indexOf('}');
      comment.text = (close < 0 ? content.slice(1) : content.slice(1, close)).trim();
      if (close < 0) {
        comment.text = content.slice(1);
        inComment = comment;
      }
      continue;
    }
    if (ended) {
      continue;
    }
    TOKEN.lastIndex = indent;
    for (let match = TOKEN.exec(lineText); match !== null && match[0] !== ''; match = TOKEN.exec(lineText)) {
      const token = match[0];
      const character = match.index;
      if (/^\s/.test(token)) {
        continue;
      }
      if (token.startsWith('(') && !token.startsWith('(=)')) {
        const label = /\$\[(\d+)\]/.exec(token);
        const variation = new Line(top(), label ? Number(label[1]) : null);
        // The move line it is attached to, as the enclosing line stands now.
        variation.attachedTo = { ...top().moveLine };
        top().items.push({ variation });
        stack.push(variation);
        continue;
      }
      if (token === ')') {
        if (stack.length > 1) {
          stack.pop();
        }
        continue;
      }
      if (/^\d+\.$|^1\?$/.test(token)) {
        number = parseInt(token, 10);
        side = 'white';
        top().moveLine = { white: null, black: null };
        continue;
      }
      if (token === '…' || token === '...' || token === ',') {
        side = 'black';
        continue;
      }
      if (RESULT.test(token) && stack.length === 1) {
        ended = true;
        break;
      }
      if (ANNOTATION.test(token) && lastMove()) {
        lastMove().written += ' ' + token;
        continue;
      }
      moves.push(halfMove(top(), token, { line: index, character }, number, side));
      side = 'black';
    }
  }
  if (inComment !== null) {
    inComment.text = inComment.text.trim();
  }
  return { tags, main, moves, end };
}

/** A half-move of `line`, linked to the one before it in its line of play. */
function halfMove(line, written, place, number, side) {
  const node = { line, written, place, number, side, prev: null, next: null, variations: [], ply: 1 };
  if (line.moves.length > 0) {
    node.prev = line.moves[line.moves.length - 1];
    node.prev.next = node;
  } else if (line.parent !== null) {
    // A variation's first half-move: an alternative to the half-move of the same side on the
    // move line it is attached to, from the position before that one.
    const attached = line.attachedTo || {};
    const replaced = (side === 'white' ? attached.white : attached.black) || attached.black || attached.white || null;
    line.replaces = replaced;
    if (replaced) {
      replaced.variations.push(line);
      node.prev = replaced.prev;
    } else {
      node.prev = line.parent.moves.length > 0 ? line.parent.moves[line.parent.moves.length - 1] : null;
    }
  }
  node.ply = node.prev ? node.prev.ply + 1 : 1;
  line.moves.push(node);
  line.items.push({ move: node });
  line.moveLine[side === 'white' ? 'white' : 'black'] = node;
  return node;
}

/** The players and the event, as a viewer's heading shows them (text). */
export function heading(tags) {
  const player = (side) => tags.get(side) || tags.get(side + 'NA') || '?';
  const players = tags.has('White') || tags.has('Black') || tags.has('WhiteNA') || tags.has('BlackNA')
    ? `${player('White')} – ${player('Black')}` : tags.get('Title') || '';
  const known = (value) => value && !/^[?-]*$/.test(value) && !/^\?{4}[-.?]*$/.test(value);
  const event = ['Event', 'Site', 'Date', 'Round'].map((name) => tags.get(name)).filter(known).join(' · ');
  const result = tags.get('Result');
  return { players, event, result: known(result) || result === '*' ? result : '' };
}

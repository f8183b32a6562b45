// The board front-end: draws an answer of the module's `board` request (the same object as
// the language server's `ctlpgn/board`) and turns the user's clicks and keys into wishes the
// host carries out: go to a half-move, play one, flip, copy the PDTL. It knows nothing of
// where the answer comes from, so that every host draws the board one way: the playground
// (its module), <ctlpgn-viewer>, and VS Code's board panel (a language server behind the
// extension; editors/vscode/webview/board.js bundles this file).
//
// Playing: a click on a piece of the side to move marks its destinations (one `[data-target]`
// circle per hex); a click on a mark plays the half-move, or, when several half-moves share the
// hex (promotions, castlings), shows one `[data-choice]` button each.
//
// What comes from the record (labels, the PDTL, half-moves' texts) goes into the page as text
// (textContent, attributes); the board's SVG, which the module drew, is parsed as SVG, stripped
// of anything that could run or load, and imported: never written as HTML.

import { lineLength } from './board-line.js';

const SVG = 'http://www.w3.org/2000/svg';

/** `tag` with a class and text, made in `document`. */
export function make(document, tag, className, text) {
  const element = document.createElement(tag);
  if (className) {
    element.className = className;
  }
  if (text !== undefined) {
    element.textContent = text;
  }
  return element;
}

/**
 * The SVG of `text` as a node of `document`, or null when it is not SVG. Only SVG elements
 * stay; scripts, foreign objects, event handlers and links out of the drawing are removed.
 */
export function svgNode(document, text, nonce) {
  const parsed = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG || root.localName !== 'svg') {
    return null;
  }
  for (const node of [...root.querySelectorAll('*')]) {
    if (node.namespaceURI !== SVG || node.localName === 'script' || node.localName === 'foreignObject') {
      node.remove();
      continue;
    }
    for (const attribute of [...node.attributes]) {
      const name = attribute.localName.toLowerCase();
      const link = name === 'href' && !attribute.value.startsWith('#');
      if (name.startsWith('on') || link) {
        node.removeAttributeNode(attribute);
      }
    }
    if (nonce && node.localName === 'style') {
      node.setAttribute('nonce', nonce);
    }
  }
  return document.importNode(root, true);
}

/** Scrolls `list` (positioned, so that it is its items' offset parent), never the page, to show `item`. */
export function reveal(list, item) {
  const top = item.offsetTop;
  if (top < list.scrollTop) {
    list.scrollTop = top;
  } else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top + item.offsetHeight - list.clientHeight;
  }
}

/** The pieces' names by their standard letters (the core's `PieceKind::name`). */
const PIECE_NAMES = {
  P: 'Pawn', E: 'Elephant', J: 'Bishop', N: 'Knight', G: 'Pegasus', R: 'Rook', V: 'Wyvern', D: 'Queen', K: 'King',
};

export class BoardView {
  /**
   * A board in `container`. `host` carries out the wishes: `goto(ply)`, `play(text)`,
   * `flip()`, and optionally `copy(pdtl)` (else the clipboard). Options: `moveList` (show the
   * answer's line of play, default true), `keys` (←/→/Home/End, f to flip: true on the view, the
   * default; false for none; or where to listen for them, such as a panel's window),
   * `nonce` (for the SVG's <style> under a content security policy).
   */
  constructor(container, host, { moveList = true, keys = true, nonce = '' } = {}) {
    const document = container.ownerDocument;
    this.host = host;
    this.nonce = nonce;
    this.answer = null;
    /** The hex of the piece whose destinations are marked, or null. */
    this.selected = null;
    /** How many answers were shown: a test waits for the next one by it (data-shown). */
    this.shown = 0;

    this.root = make(document, 'div', 'ctlpgn-view');
    this.toolbar = make(document, 'div', 'ctlpgn-toolbar');
    this.previous = this.#button('←', 'previous', 'Previous half-move', () => this.#step(-1));
    this.next = this.#button('→', 'next', 'Next half-move', () => this.#step(1));
    this.flip = this.#button('Flip', 'flip', 'Turn the board round', () => this.host.flip());
    this.turn = make(document, 'span', 'ctlpgn-turn');
    this.check = make(document, 'span', 'ctlpgn-check');
    this.toolbar.append(this.previous, this.next, this.flip, this.turn, this.check);
    this.board = make(document, 'div', 'ctlpgn-board-box');
    if (keys) {
      // Focusable, so that a click on the board gives its keys to the view.
      this.board.tabIndex = 0;
      this.board.setAttribute('aria-label', 'Board: click a piece, then a marked hex, to play; ←/→ step one half-move, Home/End jump to the start/end of the line, f flips the board, Esc clears the marks');
    }
    this.choices = make(document, 'div', 'ctlpgn-choices');
    this.choices.hidden = true;
    const pdtlRow = make(document, 'div', 'ctlpgn-pdtl-row');
    this.pdtl = make(document, 'code', 'ctlpgn-pdtl');
    this.pdtl.dataset.pdtl = '';
    this.copy = this.#button('Copy PDTL', 'copy', 'Copy the position as a PDTL', () => this.#copy());
    pdtlRow.append(this.pdtl, this.copy);
    this.message = make(document, 'p', 'ctlpgn-message');
    this.message.setAttribute('role', 'status');
    this.moves = make(document, 'ol', 'ctlpgn-moves');
    this.moves.hidden = !moveList;
    this.moveList = moveList;
    this.root.append(this.toolbar, this.board, this.choices, pdtlRow, this.message, this.moves);
    container.append(this.root);

    this.board.addEventListener('click', (event) => this.#click(event));
    // A click anywhere else clears the marks.
    document.addEventListener('click', (event) => {
      const path = event.composedPath();
      if (this.selected !== null && !path.includes(this.board) && !path.includes(this.choices)) {
        this.clear();
      }
    });
    const keysOn = keys === true || keys === false ? this.root : keys;
    keysOn.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        this.clear();
        return;
      }
      const typing = event.target instanceof Element && event.target.closest('input, textarea, [contenteditable]');
      if (!keys || this.answer === null || typing || this.choices.contains(event.target)) {
        return;
      }
      if (event.key === 'f' && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        this.host.flip();
        return;
      }
      const last = lineLength(this.answer);
      const target = { ArrowLeft: this.answer.ply - 1, ArrowRight: this.answer.ply + 1, Home: 0, End: last }[event.key];
      if (target === undefined || target < 0 || target > last || target === this.answer.ply) {
        return;
      }
      event.preventDefault();
      this.host.goto(target);
    });
  }

  #button(text, action, title, click) {
    const button = make(this.root.ownerDocument, 'button', 'ctlpgn-button', text);
    button.type = 'button';
    button.dataset.action = action;
    button.title = title;
    button.setAttribute('aria-label', title);
    button.addEventListener('click', click);
    return button;
  }

  #step(by) {
    if (this.answer === null) {
      return;
    }
    const target = this.answer.ply + by;
    if (target >= 0 && target <= lineLength(this.answer)) {
      this.host.goto(target);
    }
  }

  #copy() {
    const pdtl = this.answer && this.answer.pdtl;
    if (!pdtl) {
      return;
    }
    if (this.host.copy) {
      this.host.copy(pdtl);
      return;
    }
    const clipboard = this.root.ownerDocument.defaultView.navigator.clipboard;
    const said = () => this.say('PDTL copied.');
    if (clipboard) {
      clipboard.writeText(pdtl).then(said, () => this.#selectPdtl());
    } else {
      this.#selectPdtl();
    }
  }

  /** Selects the PDTL's text, for the user to copy, where the clipboard is refused. */
  #selectPdtl() {
    const selection = this.root.ownerDocument.getSelection();
    selection.selectAllChildren(this.pdtl);
    this.say('Press Ctrl+C to copy the PDTL.');
  }

  /** A line of text under the board (a refusal, a hint). */
  say(text) {
    this.message.textContent = text;
  }

  /** The half-moves of the answer that start on `hex`. */
  movesFrom(hex) {
    return ((this.answer && this.answer.moves) || []).filter((move) => move.from === hex);
  }

  #svg() {
    return this.board.querySelector('svg');
  }

  /** The cell of a hex in the SVG (the element with the hex's colour class). */
  #cell(hex) {
    const board = this.#svg();
    return board ? board.querySelector('.hex[data-hex="' + CSS.escape(hex) + '"]') : null;
  }

  /** Removes the marks, the selection and the choice. */
  clear() {
    this.selected = null;
    const board = this.#svg();
    if (board) {
      board.querySelectorAll('[data-target], [data-selected]').forEach((mark) => mark.remove());
    }
    this.choices.replaceChildren();
    this.choices.hidden = true;
  }

  /** A circle over a hex's cell, `size` of its height. */
  #circle(hex, size, className) {
    const target = this.#cell(hex);
    if (!target) {
      return null;
    }
    // A cell is a <use> of the hex shape placed at the hex's centre.
    const mark = this.root.ownerDocument.createElementNS(SVG, 'circle');
    mark.setAttribute('cx', target.getAttribute('x'));
    mark.setAttribute('cy', target.getAttribute('y'));
    mark.setAttribute('r', String(target.getBBox().height * size));
    mark.setAttribute('class', className);
    return mark;
  }

  /** Marks the destinations of the piece on `hex`: one element with data-target per hex. */
  select(hex) {
    this.clear();
    this.selected = hex;
    const board = this.#svg();
    const ring = this.#circle(hex, 0.45, 'selected');
    if (ring) {
      ring.setAttribute('data-selected', hex);
      board.appendChild(ring);
    }
    for (const to of new Set(this.movesFrom(hex).map((move) => move.to))) {
      const mark = this.#circle(to, 0.22, 'target');
      if (mark) {
        mark.setAttribute('data-target', to);
        board.appendChild(mark);
      }
    }
  }

  /** Plays the half-move from the selected piece to `to`, or asks which when several go there. */
  #choose(to) {
    const options = this.movesFrom(this.selected).filter((move) => move.to === to);
    if (options.length === 1) {
      this.#play(options[0].text);
      return;
    }
    const document = this.root.ownerDocument;
    const buttons = options.map((move) => {
      const button = make(document, 'button', 'ctlpgn-button', move.text);
      button.type = 'button';
      button.dataset.choice = move.text;
      button.addEventListener('click', () => this.#play(move.text));
      return button;
    });
    this.choices.replaceChildren(make(document, 'span', '', 'Which half-move?'), ...buttons);
    this.choices.hidden = false;
    buttons[0].focus();
  }

  #play(text) {
    this.clear();
    this.host.play(text);
  }

  #click(event) {
    if (this.answer === null || !this.answer.moves) {
      return;
    }
    const mark = event.target.closest('[data-target]');
    const at = event.target.closest('[data-hex]');
    const hex = mark ? mark.getAttribute('data-target') : at ? at.getAttribute('data-hex') : null;
    if (this.selected !== null && hex !== null && this.movesFrom(this.selected).some((move) => move.to === hex)) {
      this.#choose(hex);
    } else if (hex !== null && hex !== this.selected && this.movesFrom(hex).length > 0) {
      this.select(hex);
    } else {
      this.clear();
    }
  }

  /** Nothing to show, and why. */
  empty(reason) {
    this.answer = null;
    this.#shown();
    this.clear();
    this.board.replaceChildren();
    this.moves.replaceChildren();
    this.turn.textContent = '';
    this.check.textContent = '';
    this.pdtl.textContent = '';
    this.pdtl.dataset.pdtl = '';
    this.copy.disabled = true;
    this.previous.disabled = true;
    this.next.disabled = true;
    this.say(reason);
  }

  #shown() {
    this.shown += 1;
    this.root.dataset.shown = String(this.shown);
  }

  /** Whether `next` shows the position the current answer shows, with the same half-moves to play. */
  #samePosition(next) {
    const previous = this.answer;
    return previous !== null && next !== null && previous.ply === next.ply && previous.pdtl === next.pdtl &&
      JSON.stringify(previous.moves) === JSON.stringify(next.moves);
  }

  /**
   * Shows an answer of `board`. Where it shows the position already shown (the host asks
   * again after an edit elsewhere), a piece the user picked stays picked, its marks with it.
   */
  show(answer) {
    const keep = this.#samePosition(answer) ? this.selected : null;
    this.#shown();
    this.clear();
    this.answer = answer;
    const document = this.root.ownerDocument;
    const svg = answer.svg ? svgNode(document, answer.svg, this.nonce) : null;
    if (svg) {
      // Whether Black stands at the bottom, as the host asked (the answer's `flipped`).
      svg.setAttribute('data-flipped', String(Boolean(answer.flipped)));
      // Each piece named for a screen reader: "White Knight on F8".
      for (const piece of svg.querySelectorAll('[data-piece]')) {
        const name = PIECE_NAMES[piece.getAttribute('data-piece')] || piece.getAttribute('data-piece');
        const side = piece.getAttribute('data-side') === 'b' ? 'Black' : 'White';
        piece.setAttribute('role', 'img');
        piece.setAttribute('aria-label', `${side} ${name} on ${piece.getAttribute('data-hex')}`);
      }
    }
    this.board.replaceChildren(...(svg ? [svg] : []));
    this.board.classList.toggle('playable', Array.isArray(answer.moves));
    this.turn.textContent = answer.side ? (answer.side === 'white' ? 'White' : 'Black') + ' to move' : '';
    this.check.textContent = answer.check ? answer.check + '.' : '';
    const pdtl = answer.pdtl || '';
    this.pdtl.textContent = pdtl || (answer.exact ? 'no PDTL may hold this position' : 'not replayed: the last position known');
    this.pdtl.dataset.pdtl = pdtl;
    this.copy.disabled = !pdtl;
    this.previous.disabled = answer.ply <= 0;
    this.next.disabled = answer.ply >= lineLength(answer);
    this.say('');
    if (this.moveList) {
      this.#showLine(answer);
    }
    if (keep !== null && this.movesFrom(keep).length > 0) {
      this.select(keep);
    }
  }

  /**
   * The move list: the answer lists a window of the line of play around the place (at most
   * 200 half-moves), and what lies outside it is counted.
   */
  #showLine(answer) {
    const document = this.root.ownerDocument;
    const items = answer.line.map((halfMove) => {
      const item = document.createElement('li');
      const button = make(document, 'button', 'ctlpgn-move', halfMove.label);
      button.type = 'button';
      button.classList.toggle('current', halfMove.ply === answer.ply);
      button.classList.toggle('failed', !halfMove.played);
      button.dataset.ply = String(halfMove.ply);
      if (halfMove.ply === answer.ply) {
        button.setAttribute('aria-current', 'step');
      }
      button.addEventListener('click', () => this.host.goto(halfMove.ply));
      item.appendChild(button);
      return item;
    });
    const first = answer.line.length > 0 ? answer.line[0].ply : 1;
    const before = first - 1;
    const after = lineLength(answer) - (first - 1 + answer.line.length);
    const halfMoves = (count) => count + (count === 1 ? ' half-move' : ' half-moves');
    if (before > 0) {
      items.unshift(make(document, 'li', 'ctlpgn-elided', `… ${halfMoves(before)} before (Home goes to the first)`));
    }
    if (after > 0) {
      items.push(make(document, 'li', 'ctlpgn-elided', `… ${halfMoves(after)} after (End goes to the last)`));
    }
    this.moves.replaceChildren(...items);
    const current = this.moves.querySelector('.current');
    if (current) {
      reveal(this.moves, current);
    }
  }
}

/**
 * The view's look, for a page or a shadow root. Its colours and fonts are custom properties a
 * host may set (VS Code's panel maps its theme onto them), as the board's SVG reads its own
 * (`--ctlpgn-hex-white`, `--ctlpgn-move`, …): `--ctlpgn-view-accent` (the piece picked and its
 * marks, the focus), `--ctlpgn-view-current` and `--ctlpgn-view-current-text` (the half-move
 * shown), `--ctlpgn-view-muted` (messages), `--ctlpgn-view-failed` (a half-move not replayed),
 * `--ctlpgn-view-code-font` (PDTL and moves), `--ctlpgn-view-board-height`.
 */
export const boardCss = `
.ctlpgn-view { display: flex; flex-direction: column; gap: 0.4em; min-width: 0; }
.ctlpgn-toolbar, .ctlpgn-pdtl-row { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: center; }
.ctlpgn-check { color: var(--ctlpgn-check, #d03030); }
.ctlpgn-board-box { outline: none; }
.ctlpgn-board-box:focus-visible { outline: 2px solid var(--ctlpgn-view-accent, #0090f0); }
.ctlpgn-board-box svg { display: block; width: 100%; height: auto; max-height: var(--ctlpgn-view-board-height, 70vh); }
.ctlpgn-pdtl { font-family: var(--ctlpgn-view-code-font, ui-monospace, monospace); font-size: 0.85em; white-space: nowrap; overflow-x: auto; min-width: 0; flex: 1 1 12em; }
.ctlpgn-message { min-height: 1.2em; margin: 0; color: var(--ctlpgn-view-muted, #555); }
.ctlpgn-moves { position: relative; columns: 2; list-style: none; margin: 0; padding: 0; max-height: 16em; overflow: auto; }
.ctlpgn-elided { color: var(--ctlpgn-view-muted, #555); list-style: none; }
.ctlpgn-move { font: inherit; font-family: var(--ctlpgn-view-code-font, ui-monospace, monospace); background: none; border: 0; padding: 0 4px; cursor: pointer; color: inherit; }
.ctlpgn-move.current { background: var(--ctlpgn-view-current, #1d5fb4); color: var(--ctlpgn-view-current-text, #fff); border-radius: 3px; }
.ctlpgn-move.failed { color: var(--ctlpgn-view-failed, #c02020); }
.ctlpgn-board-box.playable [data-piece] { cursor: pointer; }
.ctlpgn-board-box circle.selected { fill: none; stroke: var(--ctlpgn-view-accent, #0090f0); stroke-width: 3; pointer-events: none; }
.ctlpgn-board-box circle.target { fill: var(--ctlpgn-view-accent, #0090f0); fill-opacity: 0.55; cursor: pointer; }
.ctlpgn-board-box circle.target:hover { fill-opacity: 0.85; }
.ctlpgn-choices { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: center; }
.ctlpgn-choices[hidden] { display: none; }
.ctlpgn-choices button { font-family: var(--ctlpgn-view-code-font, ui-monospace, monospace); }
`;

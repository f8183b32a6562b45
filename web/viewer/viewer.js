// <ctlpgn-viewer>: a CTL-PGN record published on any web page. Its text content (or the file
// its `src` names) is the record; it shows the players and the event, the board (drawn by the
// module, the same core as the language server), the moves with their variations and
// comments, and steps through them: ←/→, Home/End and ↓/↑ (into and out of a variation) when
// focused, a play button, flip, copy PDTL. `record="N"` shows the N-th record of the file (the
// first by default); `ply="N"` opens it at the N-th half-move of the main line; `flip` shows
// Black at the bottom; `theme` is light, dark or auto (the system's). Every viewer of a page
// shares one module, loaded from beside this script (or from where `wasm`, or
// CtlpgnViewer.wasm, says). The lines of play are the module's (`lines`, the core's reading of
// §11.2, as `ctlpgn/lines` answers): the viewer only links them. Record text only ever goes
// into the page as text.
//
// The public layer, which the npm package `ctlpgn-viewer` types (web/npm/index.d.ts): the
// attributes above, the methods goTo(ply) and flip(), the properties ply, move, pdtl, flipped
// and theme, and the events `ready` and `ply-change` (detail {ply, move, pdtl}).

import { Ctlpgn, CtlpgnError } from '../js/core.js';
import { BoardView, boardCss, make as makeIn, reveal } from '../js/board-view.js';

// Written this way, `new URL('./…', import.meta.url)`, so that bundlers which follow it
// (webpack 5, Vite) copy the module beside the bundle and rewrite the address.
const WASM = new URL('./ctlpgn_web.wasm', import.meta.url);
/** How long the play button shows each half-move. */
const STEP_MS = 1200;

/**
 * The viewer's colours, as custom properties a page may set on the element (a page's rule
 * beats the shadow root's :host), light and dark. Every text colour keeps a contrast of at
 * least 4.5:1 with the background it stands on (WCAG AA; test/npm.test.js measures it).
 */
const LIGHT = {
  text: '#1f1f1f', background: '#fff', border: '#ccc', muted: '#555', number: '#6b6b6b',
  comment: '#4d6b2e', variation: '#333', rule: '#ddd', button: '#f2f2f2', 'button-hover': '#e4e4e4',
  'button-border': '#8a8a8a', accent: '#1d5fb4', 'accent-text': '#fff', notice: '#8a4b00', check: '#c02020', focus: '#1d5fb4',
};
const DARK = {
  text: '#e6e6e6', background: '#1e1f22', border: '#4a4c50', muted: '#b4b4b4', number: '#a6a6a6',
  comment: '#9fcf7a', variation: '#d0d0d0', rule: '#46484c', button: '#2d2f33', 'button-hover': '#3a3d42',
  'button-border': '#75787d', accent: '#1d5fb4', 'accent-text': '#fff', notice: '#f0b060', check: '#ff8080', focus: '#6aa8ff',
};
/** The palette as declarations of --ctlpgn-viewer-*, and the board view's own properties mapped onto it. */
const palette = (colours) => Object.entries(colours).map(([name, value]) => `--ctlpgn-viewer-${name}: ${value};`).join(' ') +
  ' --ctlpgn-view-muted: var(--ctlpgn-viewer-muted); --ctlpgn-view-current: var(--ctlpgn-viewer-accent);' +
  ' --ctlpgn-view-current-text: var(--ctlpgn-viewer-accent-text); --ctlpgn-view-accent: var(--ctlpgn-viewer-focus);' +
  ` color-scheme: ${colours === DARK ? 'dark' : 'light'};`;

const viewerCss = `
:host { ${palette(LIGHT)} }
:host([theme="dark"]) { ${palette(DARK)} }
@media (prefers-color-scheme: dark) { :host([theme="auto"]) { ${palette(DARK)} } }
:host { display: block; max-width: 820px; font: 15px/1.4 system-ui, sans-serif; color: var(--ctlpgn-viewer-text); background: var(--ctlpgn-viewer-background);
  border: 1px solid var(--ctlpgn-viewer-border); border-radius: 6px; padding: 0.6em; }
:host(:focus) { outline: 2px solid var(--ctlpgn-viewer-focus); outline-offset: 2px; }
.heading { margin: 0 0 0.4em; }
.players { font-weight: bold; }
.event { color: var(--ctlpgn-viewer-muted); font-size: 0.9em; }
.body { display: grid; grid-template-columns: minmax(0, 1.2fr) minmax(0, 1fr); gap: 0.8em; }
@media (max-width: 620px) { .body { grid-template-columns: minmax(0, 1fr); } }
.controls { display: flex; flex-wrap: wrap; gap: 0.4em; margin: 0.3em 0; }
button { font: inherit; padding: 0.2em 0.7em; border: 1px solid var(--ctlpgn-viewer-button-border); border-radius: 4px; background: var(--ctlpgn-viewer-button); color: inherit; cursor: pointer; }
button:hover { background: var(--ctlpgn-viewer-button-hover); }
button:disabled { opacity: 0.5; cursor: default; }
button[aria-pressed="true"] { background: var(--ctlpgn-viewer-accent); color: var(--ctlpgn-viewer-accent-text); }
.moves { position: relative; max-height: 420px; overflow: auto; font-family: ui-monospace, monospace; font-size: 0.92em; }
.line { margin: 0; }
.variation { margin: 0.2em 0 0.2em 1em; padding-left: 0.5em; border-left: 2px solid var(--ctlpgn-viewer-rule); color: var(--ctlpgn-viewer-variation); }
.number { color: var(--ctlpgn-viewer-number); margin: 0 0.15em 0 0.5em; }
.line > .number:first-child { margin-left: 0; }
.move { font: inherit; border: 0; background: none; padding: 0 0.25em; border-radius: 3px; }
.move.current { background: var(--ctlpgn-viewer-accent); color: var(--ctlpgn-viewer-accent-text); }
.comment { display: block; margin: 0.15em 0; color: var(--ctlpgn-viewer-comment); font-family: system-ui, sans-serif; font-style: italic; white-space: pre-wrap; }
.result { font-weight: bold; margin-left: 0.3em; }
.notice { color: var(--ctlpgn-viewer-notice); margin: 0.3em 0 0; }
.notice:empty { display: none; }
.ctlpgn-check { color: var(--ctlpgn-viewer-check); }
.ctlpgn-toolbar [data-action="previous"], .ctlpgn-toolbar [data-action="next"] { display: none; }
`;

let sheets = null;
/** The viewer's style sheets, made once and shared by every viewer (no inline style for a page's CSP to refuse). */
function styleSheets() {
  if (sheets === null) {
    sheets = [boardCss, viewerCss].map((css) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      return sheet;
    });
  }
  return sheets;
}

/** `text` without the indentation every line shares, nor blank lines around it (a record written inside HTML). */
function dedent(text) {
  const lines = text.replace(/^\s*\n/, '').replace(/\s+$/, '').split('\n');
  const widths = lines.filter((line) => line.trim() !== '').map((line) => /^[ \t]*/.exec(line)[0].length);
  const common = widths.length > 0 ? Math.min(...widths) : 0;
  return lines.map((line) => line.slice(common)).join('\n') + '\n';
}

/** The players and the event, as the heading shows them (text), from the answer's tags. */
function heading(tagList) {
  const tags = new Map(tagList.map((tag) => [tag.name, tag.value]));
  const player = (side) => tags.get(side) || tags.get(side + 'NA') || '?';
  const players = tags.has('White') || tags.has('Black') || tags.has('WhiteNA') || tags.has('BlackNA')
    ? `${player('White')} – ${player('Black')}` : tags.get('Title') || '';
  const known = (value) => value && !/^[?-]*$/.test(value) && !/^\?{4}[-.?]*$/.test(value);
  const event = ['Event', 'Site', 'Date', 'Round'].map((name) => tags.get(name)).filter(known).join(' · ');
  const result = tags.get('Result');
  return { players, event, result: known(result) || result === '*' ? result : '' };
}

/**
 * The module's lines of play (the answer of `lines`) linked for stepping: each half-move a
 * node `{line, ply, number, side, written, place, prev, next, variations}`, each line
 * `{index, parent, label, items, moves, replaces}`. Where a variation starts is the module's
 * `ply`: its first half-move follows the one of that ply (the start for 0), and replaces the
 * half-move after it in the line it branches off. One pass over the lines, parents first.
 */
function linkLines(answer) {
  const lines = answer.lines.map((line, index) => ({
    index, parent: null, label: line.label, ply: line.ply, items: [], moves: [], replaces: null, byPly: new Map(),
  }));
  const all = [];
  answer.lines.forEach((written, index) => {
    const line = lines[index];
    line.parent = written.parent === null ? null : lines[written.parent];
    for (const item of written.items) {
      if (item.kind === 'comment') {
        line.items.push({ comment: { text: item.text } });
      } else if (item.kind === 'variation') {
        line.items.push({ variation: lines[item.line] });
      } else {
        const node = {
          line, ply: item.ply, number: item.number, side: item.side,
          written: item.move + (item.annotation || ''),
          place: item.range.start, prev: null, next: null, variations: [],
        };
        if (line.moves.length > 0) {
          node.prev = line.moves[line.moves.length - 1];
          node.prev.next = node;
        } else if (line.parent !== null) {
          const parent = line.parent;
          // Where the variation branches: after the parent's half-move of its ply, or, where
          // the parent has none of that ply (it branches where the parent starts), where the
          // parent's own first half-move follows from.
          node.prev = parent.byPly.get(line.ply) || (parent.moves[0] && parent.moves[0].ply === line.ply + 1 ? parent.moves[0].prev : null);
          line.replaces = parent.byPly.get(line.ply + 1) || null;
          if (line.replaces) {
            line.replaces.variations.push(line);
          }
        }
        line.moves.push(node);
        line.byPly.set(node.ply, node);
        line.items.push({ move: node });
        all.push(node);
      }
    }
  });
  return { main: lines[0], lines, moves: all };
}

/** `tag` with a class and text, made in this page's document. */
const make = (tag, className, text) => makeIn(document, tag, className, text);

/** The system's colour scheme, which `theme="auto"` follows. */
const darkScheme = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

export class CtlpgnViewer extends HTMLElement {
  static observedAttributes = ['ply', 'flip', 'theme', 'record'];

  /**
   * Where every viewer without a `wasm` attribute loads the module from: beside this script,
   * unless the page sets it (a bundler that renamed the file) before the viewers start, which
   * is a microtask after this module ran: the importing module's own code runs first.
   */
  static wasm = WASM;

  /** A main-line ply asked for by goTo() before the record was read. */
  #pendingPly = null;
  /** The board answer shown last (null when none could be drawn). */
  #answer = null;
  #followScheme = () => {
    if (this.record !== null && this.getAttribute('theme') === 'auto') {
      this.#draw();
    }
  };

  constructor() {
    super();
    this.shadow = this.attachShadow({ mode: 'open' });
    this.shadow.adoptedStyleSheets = styleSheets();
    this.started = false;
    this.record = null;
    this.current = null;
    this.playing = null;
    this.flipped = false;
  }

  connectedCallback() {
    darkScheme?.addEventListener('change', this.#followScheme);
    if (!this.hasAttribute('tabindex')) {
      this.tabIndex = 0;
    }
    if (!this.started) {
      this.started = true;
      this.#start();
    }
  }

  disconnectedCallback() {
    this.#stop();
    darkScheme?.removeEventListener('change', this.#followScheme);
  }

  /** Shows the main line's half-move `ply` (0: the start; past the end: its last). */
  goTo(ply) {
    const wanted = Number(ply);
    if (this.record === null) {
      this.#pendingPly = wanted;
      return;
    }
    this.#stop();
    this.go(this.#atPly(wanted));
  }

  /** Turns the board round, and says so in the `flip` attribute. */
  flip() {
    this.toggleAttribute('flip');
  }

  /** The ply of the half-move shown in its line of play (0: the start); setting it calls goTo. */
  get ply() {
    return this.current ? this.current.ply : this.#pendingPly ?? Number(this.getAttribute('ply') || 0);
  }

  set ply(ply) {
    this.goTo(ply);
  }

  /** The half-move shown as the record writes it, or null at the start. */
  get move() {
    return this.current ? this.current.written : null;
  }

  /** The PDTL of the position shown: one string, or null when none is known. */
  get pdtl() {
    return this.#answer ? this.#answer.pdtl || null : null;
  }

  /** `light` (the default), `dark`, or `auto` (the system's `prefers-color-scheme`). */
  get theme() {
    const theme = this.getAttribute('theme');
    return theme === 'dark' || theme === 'auto' ? theme : 'light';
  }

  set theme(theme) {
    this.setAttribute('theme', theme);
  }

  /** The board's colours: the theme, `auto` read from the system now. */
  #boardTheme() {
    const theme = this.theme;
    return theme === 'auto' ? (darkScheme?.matches ? 'dark' : 'light') : theme;
  }

  /** The module's address: the `wasm` attribute (against the page), else CtlpgnViewer.wasm. */
  #wasm() {
    const wasm = this.getAttribute('wasm');
    return wasm ? new URL(wasm, document.baseURI) : new URL(CtlpgnViewer.wasm, document.baseURI);
  }

  attributeChangedCallback(name) {
    if (!this.document) {
      return;
    }
    if (name === 'record') {
      if (this.#read()) {
        this.go(this.#atPly(Number(this.getAttribute('ply') || 0)));
      }
      return;
    }
    if (this.record === null) {
      return;
    }
    if (name === 'ply') {
      this.go(this.#atPly(Number(this.getAttribute('ply'))));
    } else if (name === 'flip') {
      this.flipped = this.hasAttribute('flip');
      this.#draw();
    } else if (name === 'theme') {
      this.#draw();
    }
  }

  async #start() {
    const notice = make('p', 'notice');
    notice.setAttribute('role', 'status');
    this.notice = notice;
    this.shadow.replaceChildren(notice);
    notice.textContent = 'Loading…';
    let text;
    try {
      const src = this.getAttribute('src');
      if (src) {
        const response = await fetch(new URL(src, document.baseURI));
        if (!response.ok) {
          throw new Error(`HTTP ${response.status}`);
        }
        text = await response.text();
      } else {
        text = this.textContent;
      }
      // A microtask later: the module that imported this one may set CtlpgnViewer.wasm first.
      await null;
      this.session = await Ctlpgn.shared(this.#wasm());
    } catch (error) {
      notice.textContent = `The game could not be loaded: ${error.message}`;
      return;
    }
    this.text = dedent(text);
    this.document = this.session.open(this.text);
    this.session.onRestart(() => {
      this.notice.textContent = 'The board was restarted after an internal error.';
      this.#draw();
    });
    this.flipped = this.hasAttribute('flip');
    notice.textContent = '';
    this.addEventListener('keydown', (key) => this.#key(key));
    if (!this.#read()) {
      return;
    }
    this.go(this.#atPly(this.#pendingPly ?? Number(this.getAttribute('ply') || 0)));
    this.#pendingPly = null;
    this.dataset.ready = 'true';
    this.dispatchEvent(new Event('ready'));
  }

  /** Reads the lines of the chosen record (`record`, from 1) and builds the view; whether there is one. */
  #read() {
    const record = Math.max(1, Math.floor(Number(this.getAttribute('record') || 1)) || 1);
    let answer;
    try {
      answer = this.document.call('lines', { record });
    } catch (error) {
      if (error instanceof CtlpgnError) {
        this.notice.textContent = error.message;
        return false;
      }
      throw error;
    }
    if (answer === null) {
      this.shadow.replaceChildren(this.notice);
      this.notice.textContent = `No record ${record} here.`;
      this.record = null;
      return false;
    }
    this.record = { ...linkLines(answer), tags: answer.tags, number: answer.record, records: answer.records };
    this.current = null;
    this.dataset.record = String(answer.record);
    this.#build();
    return true;
  }

  /** The main line's half-move `ply` (0 or less: the start; past the end: the last). */
  #atPly(ply) {
    const moves = this.record.main.moves;
    if (!(ply > 0) || moves.length === 0) {
      return null;
    }
    return moves[Math.min(ply, moves.length) - 1];
  }

  #build() {
    const { players, event, result } = heading(this.record.tags);
    const head = make('div', 'heading');
    head.append(make('div', 'players', players), make('div', 'event', event));
    const body = make('div', 'body');
    const boardPane = make('div', 'board-pane');
    this.board = new BoardView(boardPane, {
      goto: () => {},
      play: () => {},
      flip: () => this.flip(),
    }, { moveList: false, keys: false });
    const listPane = make('div', 'list-pane');
    const controls = make('div', 'controls');
    const button = (text, action, title, click) => {
      const element = make('button', '', text);
      element.type = 'button';
      element.dataset.action = action;
      element.title = title;
      element.setAttribute('aria-label', title);
      element.addEventListener('click', click);
      return element;
    };
    this.buttons = {
      first: button('«', 'first', 'Start (Home)', () => this.go(null)),
      previous: button('←', 'back', 'Previous half-move (←)', () => this.#back()),
      play: button('▶', 'play', 'Play through the game', () => this.#togglePlay()),
      next: button('→', 'forward', 'Next half-move (→)', () => this.#forward()),
      last: button('»', 'last', 'End of the line (End)', () => this.go(this.#lineEnd())),
    };
    this.buttons.play.setAttribute('aria-pressed', 'false');
    controls.append(...Object.values(this.buttons));
    this.list = make('div', 'moves');
    this.list.setAttribute('aria-label', 'Moves');
    this.#fillList(result);
    listPane.append(controls, this.list);
    body.append(boardPane, listPane);
    this.shadow.replaceChildren(head, body, this.notice);
  }

  /** The move list: each line of play a block, its variations nested inside (an explicit stack, not recursion). */
  #fillList(result) {
    this.buttonsOf = new Map();
    const root = make('div', 'line main');
    const pending = [{ line: this.record.main, into: root }];
    while (pending.length > 0) {
      const { line, into } = pending.pop();
      let needNumber = true;
      for (const item of line.items) {
        if (item.comment) {
          into.append(make('span', 'comment', item.comment.text));
          needNumber = true;
        } else if (item.variation) {
          const block = make('div', 'line variation');
          block.dataset.variation = String(item.variation.index);
          if (item.variation.label !== null) {
            block.dataset.label = String(item.variation.label);
          }
          into.append(block);
          pending.push({ line: item.variation, into: block });
          needNumber = true;
        } else {
          const node = item.move;
          if (node.side === 'white' || needNumber) {
            const number = node.number === null ? '' : node.side === 'white' ? `${node.number}.` : `${node.number}…`;
            into.append(make('span', 'number', number));
          }
          if (node.side === 'black' && !needNumber) {
            into.append(', ');
          } else if (into.lastChild && into.lastChild.nodeType === Node.ELEMENT_NODE && into.lastChild.classList.contains('move')) {
            into.append(' ');
          }
          needNumber = false;
          const move = make('button', 'move', node.written);
          move.type = 'button';
          move.tabIndex = -1;
          move.dataset.ply = String(node.ply);
          move.dataset.variation = String(node.line.index);
          move.addEventListener('click', () => {
            this.#stop();
            this.go(node);
          });
          this.buttonsOf.set(node, move);
          into.append(move);
        }
      }
    }
    if (result) {
      root.append(make('span', 'result', result));
    }
    this.list.replaceChildren(root);
  }

  /** Where the record starts: the board there is the starting position. */
  #startPlace() {
    return { line: 0, character: 0 };
  }

  /** Shows the position after `node` (null: the start). */
  go(node) {
    const before = this.current;
    if (this.current && this.buttonsOf.has(this.current)) {
      this.buttonsOf.get(this.current).classList.remove('current');
      this.buttonsOf.get(this.current).removeAttribute('aria-current');
    }
    this.current = node;
    const button = node ? this.buttonsOf.get(node) : null;
    if (button) {
      button.classList.add('current');
      button.setAttribute('aria-current', 'step');
      reveal(this.list, button);
    }
    this.dataset.ply = String(node ? node.ply : 0);
    this.#draw();
    // Every change of the half-move shown, by any means; not the first position (`ready`).
    // It bubbles, so that a page may follow all its viewers from one listener.
    if (node !== before && this.dataset.ready === 'true') {
      this.dispatchEvent(new CustomEvent('ply-change', { bubbles: true, detail: { ply: this.ply, move: this.move, pdtl: this.pdtl } }));
    }
  }

  #draw() {
    if (!this.board) {
      return;
    }
    const position = this.current ? this.current.place : this.#startPlace();
    this.#answer = null;
    let answer;
    try {
      answer = this.document.call('board', { position, flip: this.flipped, theme: this.#boardTheme() });
    } catch (error) {
      if (error instanceof CtlpgnError) {
        this.notice.textContent = error.message;
        return;
      }
      throw error;
    }
    if (answer === null) {
      this.board.empty('No record here.');
      return;
    }
    this.#answer = answer;
    // A viewer shows; it does not play.
    this.board.show({ ...answer, moves: undefined, flipped: this.flipped });
    const node = this.current;
    this.buttons.first.disabled = node === null;
    this.buttons.previous.disabled = node === null;
    this.buttons.next.disabled = this.#following() === null;
    this.buttons.last.disabled = this.#following() === null;
  }

  /** The half-move after the current one in its line. */
  #following() {
    return this.current ? this.current.next : this.record.main.moves[0] || null;
  }

  #forward() {
    const next = this.#following();
    if (next) {
      this.go(next);
    }
    return next !== null;
  }

  #back() {
    if (this.current) {
      this.go(this.current.prev);
    }
  }

  /** The last half-move of the current line. */
  #lineEnd() {
    let node = this.#following() || this.current;
    while (node && node.next) {
      node = node.next;
    }
    return node;
  }

  /** Into a variation: one that replaces the next half-move, else the next one beside the current variation. */
  #down() {
    const next = this.#following();
    if (next && next.variations.length > 0) {
      this.go(next.variations[0].moves[0]);
      return;
    }
    const line = this.current && this.current.line;
    if (line && line.replaces && line.moves[0] === this.current) {
      const siblings = line.replaces.variations;
      const after = siblings[siblings.indexOf(line) + 1];
      if (after) {
        this.go(after.moves[0]);
      }
    }
  }

  /** Out of the variation: back to where it branched (the place ↓ entered it from). */
  #up() {
    const line = this.current && this.current.line;
    if (line && line.parent) {
      this.go(line.moves[0].prev);
    }
  }

  #key(event) {
    const actions = {
      ArrowRight: () => this.#forward(),
      ArrowLeft: () => this.#back(),
      Home: () => this.go(null),
      End: () => this.go(this.#lineEnd()),
      ArrowDown: () => this.#down(),
      ArrowUp: () => this.#up(),
    };
    const action = actions[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    event.preventDefault();
    this.#stop();
    action();
  }

  #togglePlay() {
    if (this.playing !== null) {
      this.#stop();
      return;
    }
    if (this.#following() === null) {
      this.go(null);
    }
    this.buttons.play.setAttribute('aria-pressed', 'true');
    this.buttons.play.textContent = '■';
    this.playing = setInterval(() => {
      if (!this.#forward()) {
        this.#stop();
      }
    }, STEP_MS);
  }

  #stop() {
    if (this.playing !== null) {
      clearInterval(this.playing);
      this.playing = null;
      this.buttons.play.setAttribute('aria-pressed', 'false');
      this.buttons.play.textContent = '▶';
    }
  }
}

if (!customElements.get('ctlpgn-viewer')) {
  customElements.define('ctlpgn-viewer', CtlpgnViewer);
}

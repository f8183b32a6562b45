// The playground page: a record in CodeMirror checked as it is typed by the module (the same
// core as the language server), the board beside it following the cursor and played by
// clicks, files opened, downloaded and shared by URL. Everything runs in the page; nothing
// is sent anywhere.

import { Ctlpgn, CtlpgnError } from '../js/core.js';
import { placeOfPly } from '../js/board-line.js';
import { MoveTree } from './move-tree.js';
import { BoardView, boardCss } from '../js/board-view.js';
import { EditorView, extensions, stateOf, placeOf, offsetOf, changesOf, showDiagnostics } from './editor.js';
import { newGameText, startLine } from '../js/new-game.js';
import { fragmentOf, recordOf } from './share.js';
import { Theme } from './theme.js';
import sample from '../../examples/opening.ctl-pgn';

// The script's own URL, read while it runs: the module sits beside it.
const here = document.currentScript ? document.currentScript.src : location.href;

/** Where the module's bytes come from: beside the page, or, opened from a folder (file:), a script beside it. */
function wasmSource() {
  if (location.protocol !== 'file:') {
    return new URL('ctlpgn_web.wasm', here);
  }
  // A page opened from a file may not fetch; a classic script may still load, and this one
  // holds the module in base64.
  return () => new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = new URL('ctlpgn_web.wasm.js', here).href;
    script.onload = () => {
      const base64 = globalThis.ctlpgnWasm;
      delete globalThis.ctlpgnWasm;
      resolve(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    };
    script.onerror = () => reject(new Error('cannot load ctlpgn_web.wasm.js'));
    document.head.appendChild(script);
  });
}

const element = (id) => document.getElementById(id);

/** The line break most of a text uses; the one a change's new lines are written with. */
function lineBreakOf(text) {
  const found = /\r\n|\r|\n/.exec(text);
  return found ? found[0] : '\n';
}

/** How many diagnostics the list shows; the editor underlines them all. */
const LISTED = 1000;

class Playground {
  constructor(session) {
    this.session = session;
    this.document = null;
    this.lineBreak = '\n';
    this.fileName = 'game.ctl-pgn';
    this.flipped = false;
    /** The place and version the board was last asked at: a play is read there. */
    this.boardPlace = null;
    this.pending = { diagnostics: false, board: false };
    this.extensions = extensions({
      document: () => this.document,
      changed: (update) => this.#changed(update),
      selected: () => this.#schedule('board'),
    });
    this.view = new EditorView({ parent: element('editor'), state: stateOf('', this.extensions) });
    this.board = new BoardView(element('board'), {
      goto: (ply) => this.goto(ply),
      play: (text) => this.play(text),
      flip: () => {
        this.flipped = !this.flipped;
        this.refreshBoard();
      },
    }, { keys: document });
    this.tree = new MoveTree(element('lines'), {
      goto: (place) => this.#goToPlace(place),
      chooseRecord: (number) => this.chooseRecord(number),
    });
    session.onRestart((error) => {
      this.notice(`The checker stopped on an internal error (${error.message}); it was restarted with your text, which is kept. Please report the record that caused it.`);
      this.#schedule('diagnostics');
      this.#schedule('board');
    });
  }

  /** The text of the editor, with the record's own line breaks. */
  text() {
    return this.view.state.doc.sliceString(0, undefined, this.lineBreak);
  }

  /** Opens a text (or a file's bytes) as the record being edited, the cursor on `line`. */
  load({ text, bytes, name, line = 0 }) {
    if (this.document) {
      this.document.close();
    }
    const source = () => this.text();
    this.document = bytes ? this.session.openBytes(bytes, { source }) : this.session.open(text, { source });
    const opened = bytes ? this.document.getText() : text;
    this.lineBreak = lineBreakOf(opened);
    this.fileName = name || 'game.ctl-pgn';
    const state = stateOf(opened, this.extensions);
    const cursor = line < state.doc.lines ? state.doc.line(line + 1).from : 0;
    this.view.setState(stateOf(opened, this.extensions, cursor));
    element('file-name').textContent = this.fileName;
    // A new document starts at version 1 again: the lines shown are another text's.
    this.tree.show(null);
    this.notice('');
    this.refreshDiagnostics();
    this.refreshBoard();
  }

  async openFile(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    this.load({ bytes, name: file.name });
    this.view.focus();
  }

  /** A change of the editor's text, sent to the module as changes of the text before it. */
  #changed(update) {
    if (!this.document) {
      return;
    }
    const before = update.startState.doc;
    const changes = [];
    update.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
      changes.push({
        range: { start: placeOf(before, fromA), end: placeOf(before, toA) },
        text: inserted.sliceString(0, inserted.length, this.lineBreak),
      });
    });
    // From the last to the first: each range is then still where it was read.
    changes.reverse();
    this.#guard(() => this.document.change(changes));
    this.#schedule('diagnostics');
  }

  /** Runs `work`; an error of the module is shown rather than thrown. */
  #guard(work) {
    try {
      return work();
    } catch (error) {
      if (!(error instanceof CtlpgnError)) {
        throw error;
      }
      if (error.code !== 'restarted') {
        this.notice(error.message);
      }
      return undefined;
    }
  }

  /** Refreshes the diagnostics or the board once, after the events of this turn. */
  #schedule(what) {
    if (this.pending[what]) {
      return;
    }
    this.pending[what] = true;
    setTimeout(() => {
      this.pending[what] = false;
      if (what === 'diagnostics') {
        this.refreshDiagnostics();
      } else {
        this.refreshBoard();
      }
    }, 0);
  }

  refreshDiagnostics() {
    const found = this.#guard(() => this.document.call('diagnostics'));
    if (!found) {
      return;
    }
    showDiagnostics(this.view, found);
    const list = element('diagnostics');
    const items = found.slice(0, LISTED).map((diagnostic) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'diagnostic ' + diagnostic.severity;
      button.dataset.code = diagnostic.code;
      button.dataset.line = String(diagnostic.line);
      const where = document.createElement('span');
      where.className = 'where';
      where.textContent = `${diagnostic.line}:${diagnostic.range.start.character + 1}`;
      const code = document.createElement('span');
      code.className = 'code';
      code.textContent = diagnostic.code;
      const message = document.createElement('span');
      message.className = 'text';
      message.textContent = diagnostic.message;
      button.append(where, ' ', code, ' ', message);
      button.title = diagnostic.name || '';
      button.addEventListener('click', () => this.#goToRange(diagnostic.range));
      item.appendChild(button);
      return item;
    });
    list.replaceChildren(...items);
    list.dataset.version = String(this.document.version);
    list.dataset.doneAt = String(performance.now());
    const more = found.length - items.length;
    element('diagnostics-count').textContent = found.length === 0 ? 'No problems.'
      : `${found.length} problem${found.length === 1 ? '' : 's'}` + (more > 0 ? ` (the first ${LISTED} listed)` : '');
  }

  #goToRange(range) {
    const doc = this.view.state.doc;
    this.view.dispatch({
      selection: { anchor: offsetOf(doc, range.start), head: offsetOf(doc, range.end) },
      scrollIntoView: true,
    });
    this.view.focus();
  }

  refreshBoard() {
    if (!this.document) {
      return;
    }
    const position = placeOf(this.view.state.doc, this.view.state.selection.main.head);
    const theme = this.theme ? this.theme.colours : 'light';
    const answer = this.#guard(() => this.document.call('board', { position, flip: this.flipped, theme }));
    if (answer === undefined) {
      return;
    }
    if (answer === null) {
      this.boardPlace = null;
      this.board.empty('No record at the cursor: a record starts with a [Variant "C\'escacs"] line.');
      return;
    }
    this.boardPlace = { position, version: answer.version };
    this.board.show({ ...answer, flipped: this.flipped });
    // The lines of play are read again only when the text or the record changed: they cover
    // the whole record, the board only the place.
    if (!this.tree.shows(answer.version, answer.record)) {
      const lines = this.#guard(() => this.document.call('lines', { position }));
      if (lines !== undefined) {
        this.tree.show(lines);
      }
    }
    this.tree.mark(answer.ply > 0 ? placeOfPly(answer, answer.ply) : null);
  }

  /** Puts the cursor at a place of the record (a half-move's start), which the board follows. */
  #goToPlace(place) {
    const at = offsetOf(this.view.state.doc, place);
    this.view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    this.refreshBoard();
  }

  /** Shows record `number` (from 1) of the file: the cursor goes to its start. */
  chooseRecord(number) {
    const lines = this.#guard(() => this.document.call('lines', { record: number }));
    if (lines) {
      this.#goToPlace(lines.range.start);
    }
  }

  /** Moves the cursor onto the half-move of `ply` of the board's line (0: before the first). */
  goto(ply) {
    const place = this.board.answer && placeOfPly(this.board.answer, ply);
    if (!place) {
      return;
    }
    const at = offsetOf(this.view.state.doc, place);
    this.view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    this.refreshBoard();
  }

  /** Plays a half-move where the board stands: the module's edits go into the editor as one change. */
  play(move) {
    const place = this.boardPlace;
    if (!place) {
      return;
    }
    let played;
    try {
      played = this.document.call('play', { version: place.version, position: place.position, move });
    } catch (error) {
      if (!(error instanceof CtlpgnError)) {
        throw error;
      }
      this.refreshBoard();
      this.board.say(error.code === 'content-modified' ? 'The record changed meanwhile: play again.' : error.message);
      return;
    }
    const state = this.view.state;
    const changes = state.changes(changesOf(state.doc, played.edits));
    const after = changes.apply(state.doc);
    const cursor = offsetOf(after, played.range.end);
    this.view.dispatch({ changes, selection: { anchor: cursor }, scrollIntoView: true, userEvent: 'input.play' });
    this.refreshBoard();
  }

  format() {
    const edits = this.#guard(() => this.document.call('format', {}));
    if (!edits || edits.length === 0) {
      this.notice(edits ? 'Already formatted.' : '');
      return;
    }
    const state = this.view.state;
    this.view.dispatch({ changes: changesOf(state.doc, edits), userEvent: 'input.format' });
    this.notice('');
  }

  download() {
    const text = this.#guard(() => this.document.getText()) ?? this.text();
    const blob = new Blob([text], { type: 'application/octet-stream' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = /\.[A-Za-z-]+$/.test(this.fileName) ? this.fileName : this.fileName + '.ctl-pgn';
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  }

  async share() {
    const fragment = await fragmentOf(this.text());
    history.replaceState(null, '', fragment);
    const url = location.href;
    const field = element('share-url');
    field.value = url;
    field.hidden = false;
    field.select();
    try {
      await navigator.clipboard.writeText(url);
      this.notice(`Link copied (${url.length.toLocaleString()} characters).`);
    } catch {
      this.notice('Copy the link below.');
    }
  }

  /** Loads the record of the URL's fragment, if it holds one; whether it did. */
  async loadFragment() {
    let bytes;
    try {
      bytes = await recordOf(location.hash);
    } catch {
      this.notice('The link\'s record is damaged: it could not be read.');
      return false;
    }
    if (!bytes) {
      return false;
    }
    this.load({ bytes, name: 'shared.ctl-pgn' });
    return true;
  }

  notice(text) {
    element('notice').textContent = text;
    element('notice').hidden = text === '';
  }
}

async function main() {
  const status = element('status');
  // The colours first, before the module loads: a dark page does not flash white.
  let page = null;
  const theme = new Theme(element('theme'), () => page?.refreshBoard());
  let session;
  try {
    session = await Ctlpgn.load(wasmSource());
  } catch (error) {
    status.textContent = `The checker could not be loaded: ${error.message}`;
    return;
  }
  const style = document.createElement('style');
  style.textContent = boardCss;
  document.head.appendChild(style);
  page = new Playground(session);
  page.theme = theme;
  if (!(await page.loadFragment())) {
    // The cursor before the fourth move: the board after the third's two captures. Found in the
    // text, since the example's layout is ctlpgn fmt's and may change.
    const fourth = sample.split('\n').findIndex((text) => text.startsWith('4. '));
    page.load({ text: sample, name: 'opening.ctl-pgn', line: Math.max(fourth, 0) });
  }
  element('open').addEventListener('change', (event) => {
    const file = event.target.files[0];
    if (file) {
      page.openFile(file);
    }
    event.target.value = '';
  });
  element('new-game').addEventListener('click', () => {
    page.load({ text: newGameText(new Date()), name: 'new-game.ctl-pgn', line: startLine });
    page.view.focus();
  });
  element('format').addEventListener('click', () => page.format());
  document.querySelector('[data-action=download]').addEventListener('click', () => page.download());
  element('share').addEventListener('click', () => page.share());
  window.addEventListener('hashchange', () => page.loadFragment());
  // A file dropped anywhere on the page is opened.
  document.addEventListener('dragover', (event) => {
    if (event.dataTransfer && [...event.dataTransfer.types].includes('Files')) {
      event.preventDefault();
      document.body.classList.add('dropping');
    }
  });
  document.addEventListener('dragleave', () => document.body.classList.remove('dropping'));
  document.addEventListener('drop', (event) => {
    document.body.classList.remove('dropping');
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) {
      event.preventDefault();
      page.openFile(file);
    }
  });
  document.addEventListener('keydown', (event) => {
    if (event.shiftKey && event.altKey && event.code === 'KeyF') {
      event.preventDefault();
      page.format();
      return;
    }
    // The keys of the move list and the help, outside the editor and the page's fields.
    const typing = event.target instanceof Element && event.target.closest('input, textarea, select, [contenteditable]');
    if (typing || event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    const help = element('keys-help');
    if (event.key === '?') {
      event.preventDefault();
      if (help.open) {
        help.close();
      } else {
        help.showModal();
      }
    } else if (!help.open && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      if (event.key === 'ArrowDown' ? page.tree.enter() : page.tree.leave()) {
        event.preventDefault();
      }
    }
  });
  // For tests and the curious: the page's session and editor.
  window.ctlpgnPlayground = page;
  status.textContent = '';
  document.body.dataset.readyAt = String(performance.now());
  document.body.dataset.ready = 'true';
}

main();

// The board panel's page: draws what the extension posts (the answer of `ctlpgn/board`) and
// sends back the user's wishes: go to a half-move by its ply (←/→, Home/End, a click in the
// move list, which shows the window of the line of play the answer lists), play one (a click
// on a piece of the side to move marks its destinations, a click on a mark plays, or asks
// which half-move when several share it), flip the board, copy the PDTL. The extension moves
// the editor's cursor or edits the record, and posts again.
//
// What comes from the record (labels, the PDTL, half-moves' texts) goes into the page as text
// (textContent, attributes); the board's SVG, which the server drew, is parsed as SVG and
// imported, never written as HTML.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const nonce = document.currentScript ? document.currentScript.nonce : '';
  const element = (id) => document.getElementById(id);
  const SVG = 'http://www.w3.org/2000/svg';
  let answer = null;
  /** The hex of the piece whose destinations are marked, or null. */
  let selected = null;

  /** The half-moves of the answer that start on `hex`. */
  function movesFrom(hex) {
    return ((answer && answer.moves) || []).filter((move) => move.from === hex);
  }

  /** The board's SVG element. */
  function svg() {
    return element('board').querySelector('svg');
  }

  /** The cell of a hex in the SVG (the element with the hex's colour class). */
  function cell(hex) {
    const board = svg();
    return board ? board.querySelector('.hex[data-hex="' + CSS.escape(hex) + '"]') : null;
  }

  /** Removes the marks, the selection and the choice. */
  function clear() {
    selected = null;
    const board = svg();
    if (board) {
      board.querySelectorAll('[data-target], [data-selected]').forEach((mark) => mark.remove());
    }
    const choices = element('choices');
    choices.replaceChildren();
    choices.hidden = true;
  }

  /** A circle over a hex's cell, `size` of its height. */
  function circle(hex, size, className) {
    const target = cell(hex);
    if (!target) {
      return null;
    }
    // A cell is a <use> of the hex shape placed at the hex's centre.
    const mark = document.createElementNS(SVG, 'circle');
    mark.setAttribute('cx', target.getAttribute('x'));
    mark.setAttribute('cy', target.getAttribute('y'));
    mark.setAttribute('r', String(target.getBBox().height * size));
    mark.setAttribute('class', className);
    return mark;
  }

  /** Marks the destinations of the piece on `hex`: one element with data-target per hex. */
  function select(hex) {
    clear();
    selected = hex;
    const board = svg();
    const ring = circle(hex, 0.45, 'selected');
    if (ring) {
      ring.setAttribute('data-selected', hex);
      board.appendChild(ring);
    }
    const targets = [...new Set(movesFrom(hex).map((move) => move.to))];
    for (const to of targets) {
      const mark = circle(to, 0.22, 'target');
      if (mark) {
        mark.setAttribute('data-target', to);
        board.appendChild(mark);
      }
    }
  }

  /** Plays the half-move from the selected piece to `to`, or asks which when several go there. */
  function choose(to) {
    const options = movesFrom(selected).filter((move) => move.to === to);
    if (options.length === 1) {
      play(options[0].text);
      return;
    }
    const choices = element('choices');
    const buttons = options.map((move) => {
      const button = document.createElement('button');
      button.textContent = move.text;
      button.dataset.choice = move.text;
      button.addEventListener('click', () => play(move.text));
      return button;
    });
    const prompt = document.createElement('span');
    prompt.textContent = 'Which half-move?';
    choices.replaceChildren(prompt, ...buttons);
    choices.hidden = false;
    buttons[0].focus();
  }

  function play(text) {
    clear();
    vscode.postMessage({ type: 'play', move: text });
  }

  /** The SVG the server drew, as nodes of this page: parsed as SVG, its <style> given the nonce. */
  function boardNodes(text) {
    const parsed = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = parsed.documentElement;
    if (root.nodeName !== 'svg') {
      return [];
    }
    root.querySelectorAll('script, foreignObject').forEach((node) => node.remove());
    root.querySelectorAll('style').forEach((style) => style.setAttribute('nonce', nonce));
    return [document.importNode(root, true)];
  }

  /** How many answers the page has shown: a test waits for the next one by it. */
  let shown = 0;

  /** Whether `next` shows the position `previous` showed, with the same half-moves to play. */
  function samePosition(previous, next) {
    return previous !== null && next !== null && previous.ply === next.ply && previous.pdtl === next.pdtl &&
      JSON.stringify(previous.moves) === JSON.stringify(next.moves);
  }

  function show(message) {
    if (message.type === 'refused') {
      element('message').textContent = message.reason;
      return;
    }
    // The extension posts the position again when anything may have changed it (an edit, the
    // cursor, the panel shown again); where it has not, a piece the user picked stays picked,
    // its marks with it, so that a click on a mark is not lost to a refresh.
    const keep = message.type === 'board' && samePosition(answer, message.answer) ? selected : null;
    shown += 1;
    document.body.dataset.shown = String(shown);
    clear();
    if (message.type === 'empty') {
      answer = null;
      element('board').replaceChildren();
      element('moves').replaceChildren();
      element('turn').textContent = '';
      element('check').textContent = '';
      element('pdtl').textContent = '';
      element('message').textContent = message.reason;
      return;
    }
    answer = message.answer;
    vscode.setState({ flip: message.flip === true });
    element('board').replaceChildren(...(answer.svg ? boardNodes(answer.svg) : []));
    element('board').classList.toggle('playable', Array.isArray(answer.moves));
    element('turn').textContent = answer.side ? (answer.side === 'white' ? 'White' : 'Black') + ' to move' : '';
    element('check').textContent = answer.check ? answer.check + '.' : '';
    element('pdtl').textContent = answer.pdtl || (answer.exact ? 'no PDTL may hold this position' : 'not replayed: the last position known');
    element('copy').disabled = !answer.pdtl;
    element('message').textContent = '';
    // The answer lists a window of the line of play around the cursor (at most 200
    // half-moves): each item is numbered by its ply, and what lies outside is counted.
    const items = answer.line.map((halfMove) => {
      const item = document.createElement('li');
      item.value = halfMove.ply;
      const button = document.createElement('button');
      button.textContent = halfMove.label;
      button.className = 'move' + (halfMove.ply === answer.ply ? ' current' : '') + (halfMove.played ? '' : ' failed');
      button.dataset.ply = String(halfMove.ply);
      if (halfMove.ply === answer.ply) {
        button.setAttribute('aria-current', 'step');
      }
      button.addEventListener('click', () => vscode.postMessage({ type: 'goto', ply: halfMove.ply }));
      item.appendChild(button);
      return item;
    });
    const first = answer.line.length > 0 ? answer.line[0].ply : 1;
    const length = lineLength(answer);
    const before = first - 1;
    const after = length - (first - 1 + answer.line.length);
    if (before > 0) {
      items.unshift(elided(before + (before === 1 ? ' half-move' : ' half-moves') + ' before (Home goes to the first)'));
    }
    if (after > 0) {
      items.push(elided(after + (after === 1 ? ' half-move' : ' half-moves') + ' after (End goes to the last)'));
    }
    element('moves').replaceChildren(...items);
    const currentMove = element('moves').querySelector('.current');
    if (currentMove) {
      currentMove.scrollIntoView({ block: 'nearest' });
    }
    if (keep !== null && movesFrom(keep).length > 0) {
      select(keep);
    }
  }

  /** How many half-moves the whole line of play has (`line` may list a window of them). */
  function lineLength(board) {
    return typeof board.lineLength === 'number' ? board.lineLength : board.line.length;
  }

  /** An item of the move list that stands for the half-moves the answer leaves out. */
  function elided(text) {
    const item = document.createElement('li');
    item.className = 'elided';
    item.textContent = '… ' + text;
    return item;
  }

  window.addEventListener('message', (event) => show(event.data));
  element('board').addEventListener('click', (event) => {
    if (answer === null || !answer.moves) {
      return;
    }
    const mark = event.target.closest('[data-target]');
    const at = event.target.closest('[data-hex]');
    const hex = mark ? mark.getAttribute('data-target') : at ? at.getAttribute('data-hex') : null;
    if (selected !== null && hex !== null && movesFrom(selected).some((move) => move.to === hex)) {
      choose(hex);
    } else if (hex !== null && hex !== selected && movesFrom(hex).length > 0) {
      select(hex);
    } else {
      clear();
    }
  });
  // A click anywhere else clears the marks.
  document.addEventListener('click', (event) => {
    if (selected !== null && !element('board').contains(event.target) && !element('choices').contains(event.target)) {
      clear();
    }
  });
  window.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      clear();
      return;
    }
    if (answer === null || event.target instanceof HTMLInputElement || element('choices').contains(event.target)) {
      return;
    }
    const last = lineLength(answer);
    const target = { ArrowLeft: answer.ply - 1, ArrowRight: answer.ply + 1, Home: 0, End: last }[event.key];
    if (target === undefined || target < 0 || target > last || target === answer.ply) {
      return;
    }
    event.preventDefault();
    vscode.postMessage({ type: 'goto', ply: target });
  });
  element('flip').addEventListener('click', () => vscode.postMessage({ type: 'flip' }));
  element('copy').addEventListener('click', () => {
    if (answer && answer.pdtl) {
      vscode.postMessage({ type: 'copy', pdtl: answer.pdtl });
    }
  });
  vscode.postMessage({ type: 'ready' });
})();

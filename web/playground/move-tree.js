// The playground's list of every line of play of the record at the cursor: the main line, its
// variations nested under the half-moves they branch from, and the comments between them, as
// the module reads them (`lines`, the answer of `ctlpgn/lines`); and, for a file of several
// records, a chooser of the record shown. A click on a half-move asks the host to put the
// cursor there, which the board follows, in a variation too; so do ↓ and ↑ (`enter`, `leave`:
// into the variation at the half-move shown, and back out of it). Record text goes in as text.

import { make as makeIn, reveal } from '../js/board-view.js';

const make = (tag, className, text) => makeIn(document, tag, className, text);

/** A place as a key: half-moves are told apart by where they start. */
const key = (place) => `${place.line}:${place.character}`;

export class MoveTree {
  /**
   * The list in `container`. `host.goto(place)` puts the cursor on a half-move;
   * `host.chooseRecord(number)` shows the record of that number (from 1).
   */
  constructor(container, host) {
    this.host = host;
    this.chooser = make('select', 'records');
    this.chooser.id = 'records';
    this.chooser.setAttribute('aria-label', 'Game shown');
    this.chooser.hidden = true;
    this.chooser.addEventListener('change', () => host.chooseRecord(Number(this.chooser.value)));
    this.list = make('div', 'move-tree');
    this.list.id = 'move-tree';
    this.list.setAttribute('aria-label', 'Lines of play');
    container.replaceChildren(this.chooser, this.list);
    /** The buttons by where their half-moves start, and where each button's starts. */
    this.buttons = new Map();
    this.places = new Map();
    this.current = null;
    /** The version and record of the lines shown. */
    this.shown = null;
  }

  /** Whether the lines of `record` at `version` are those shown. */
  shows(version, record) {
    return this.shown !== null && this.shown.version === version && this.shown.record === record;
  }

  /** Shows the answer of `lines` (null: no record). */
  show(answer) {
    this.buttons = new Map();
    this.places = new Map();
    this.current = null;
    if (answer === null) {
      this.shown = null;
      this.chooser.hidden = true;
      this.list.replaceChildren();
      return;
    }
    this.shown = { version: answer.version, record: answer.record };
    this.#fillChooser(answer);
    const root = make('div', 'line main');
    root.dataset.variation = '0';
    const blocks = [root];
    // Each line's block is made where its variation item stands in its parent, and filled
    // after: the lines come parents first, so a block exists before its line is filled.
    answer.lines.forEach((line, index) => {
      const into = blocks[index];
      if (!into) {
        return;
      }
      let needNumber = true;
      for (const item of line.items) {
        if (item.kind === 'comment') {
          into.append(make('span', 'comment', item.text));
          needNumber = true;
        } else if (item.kind === 'variation') {
          const block = make('div', 'line variation');
          block.dataset.variation = String(item.line);
          blocks[item.line] = block;
          into.append(block);
          needNumber = true;
        } else {
          if (item.side === 'white' || needNumber) {
            if (into.lastChild && into.lastChild.nodeType === Node.ELEMENT_NODE && into.lastChild.classList.contains('move')) {
              into.append(' ');
            }
            into.append(make('span', 'number', item.side === 'white' ? `${item.number}.` : `${item.number}…`));
          } else {
            into.append(', ');
          }
          needNumber = false;
          const written = item.move + (item.annotation || '');
          const button = make('button', 'move', written);
          button.type = 'button';
          button.dataset.ply = String(item.ply);
          button.dataset.variation = String(index);
          button.title = item.label;
          button.addEventListener('click', () => this.host.goto(item.range.start));
          this.buttons.set(key(item.range.start), button);
          this.places.set(button, item.range.start);
          into.append(button);
        }
      }
    });
    if (answer.result) {
      root.append(' ', make('span', 'result', answer.result));
    }
    this.list.replaceChildren(root);
  }

  #fillChooser(answer) {
    this.chooser.hidden = answer.records < 2;
    this.chooser.dataset.record = String(answer.record);
    if (this.chooser.options.length !== answer.records) {
      const options = [];
      for (let number = 1; number <= answer.records; number += 1) {
        const option = make('option', '', `Game ${number}`);
        option.value = String(number);
        option.dataset.record = String(number);
        options.push(option);
      }
      this.chooser.replaceChildren(...options);
    }
    const chosen = this.chooser.options[answer.record - 1];
    if (chosen) {
      // The game shown is named by its players, from its tags.
      const tag = (name) => (answer.tags.find((found) => found.name === name) || {}).value;
      const players = tag('White') || tag('Black') ? `: ${tag('White') || '?'} – ${tag('Black') || '?'}` : '';
      chosen.textContent = `Game ${answer.record}${players}`;
      this.chooser.value = String(answer.record);
    }
  }

  /** Marks the half-move that starts at `place` (null: none) as the board's. */
  mark(place) {
    if (this.current) {
      this.current.classList.remove('current');
      this.current.removeAttribute('aria-current');
    }
    this.current = place ? this.buttons.get(key(place)) || null : null;
    if (this.current) {
      this.current.classList.add('current');
      this.current.setAttribute('aria-current', 'true');
      reveal(this.list, this.current);
    }
  }

  /**
   * ↓: into a variation at the half-move shown, as lichess steps: the first variation written
   * right after it (an alternative to it), else the first after the next half-move of its
   * line (an alternative to that one). Whether the cursor moved.
   */
  enter() {
    const current = this.current;
    if (!current) {
      return false;
    }
    const variationAfter = (move) => {
      for (let next = move.nextElementSibling; next; next = next.nextElementSibling) {
        if (next.classList.contains('move')) {
          return null;
        }
        if (next.classList.contains('variation')) {
          return next.querySelector('.move');
        }
      }
      return null;
    };
    let target = variationAfter(current);
    if (!target) {
      let next = current.nextElementSibling;
      while (next && !next.classList.contains('move')) {
        next = next.nextElementSibling;
      }
      target = next ? variationAfter(next) : null;
    }
    return this.#go(target);
  }

  /** ↑: out of the variation the half-move shown is in, to the half-move it is an alternative to. */
  leave() {
    const variation = this.current && this.current.parentElement.closest('.variation');
    if (!variation) {
      return false;
    }
    let before = variation.previousElementSibling;
    while (before && !before.classList.contains('move')) {
      before = before.previousElementSibling;
    }
    return this.#go(before);
  }

  #go(button) {
    const place = button ? this.places.get(button) : undefined;
    if (place === undefined) {
      return false;
    }
    this.host.goto(place);
    return true;
  }
}

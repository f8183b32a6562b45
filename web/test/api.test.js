// The glue (js/core.js) under Node, on the module build.sh put in dist/: the module's
// diagnostics are the native `ctlpgn check`'s on every test record; a trap restarts the module
// with the documents open again; the half-moves of the lines of play the viewer shows
// (`lines`), variations included, are where `ctlpgn pdtl --at` finds the same positions.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';

import { Ctlpgn, CtlpgnError } from '../js/core.js';
import { check, dist, pdtl, records, repository } from './native.js';

const session = await Ctlpgn.load(() => fs.promises.readFile(path.join(dist, 'ctlpgn_web.wasm')));

/** The module's column (UTF-16 code units, 0-based) as the CLI counts it (characters, 1-based). */
function cliColumn(text, place) {
  const line = text.split(/\r\n|\r|\n/)[place.line] ?? '';
  return [...line.slice(0, place.character)].length + 1;
}

const BROKEN = [
  ...records('testdata/diagnostics'),
  ...records('testdata/examples'),
  ...records('examples'),
  ...records('tests/e2e'),
];

/** Diagnostics of the module as the CLI places them. */
function asPlaced(text, listed) {
  return listed.map((found) => ({
    line: found.line,
    column: cliColumn(text, found.range.start),
    severity: found.severity,
    code: found.code,
    message: found.message,
  }));
}

/** Diagnostics of `ctlpgn check --format json`, the fields the module's share. */
function nativePlaced(file, ...args) {
  return check(file, ...args).map((found) => ({
    line: found.line,
    column: found.column,
    severity: found.severity,
    code: found.code,
    message: found.message,
  }));
}

test('the module lists the diagnostics `ctlpgn check` lists, on every test record', () => {
  for (const file of BROKEN) {
    const bytes = fs.readFileSync(file);
    const document = session.openBytes(bytes);
    const text = document.getText();
    const web = asPlaced(text, document.call('diagnostics'));
    const native = nativePlaced(file);
    // The page's S000 says more than the command line's: how the page shows the bad bytes.
    for (const [index, found] of web.entries()) {
      if (found.code === 'S000' && native[index] && found.message.startsWith(native[index].message)) {
        found.message = native[index].message;
      }
    }
    assert.deepEqual(web, native, path.relative(repository, file));
    document.close();
  }
});

test('the module\'s check, without a document, reports what `ctlpgn check` and `check --rules` report', () => {
  let found = 0;
  for (const file of BROKEN) {
    const bytes = fs.readFileSync(file);
    const text = bytes.toString('utf8');
    const name = path.relative(repository, file);
    const plain = asPlaced(text, session.check(bytes));
    assert.deepEqual(plain, nativePlaced(file), name);
    if (!text.includes('\ufffd')) {
      assert.deepEqual(session.check(text), session.check(bytes), `${name} as text`);
    }
    const ruled = asPlaced(text, session.check(bytes, { rules: true }));
    assert.deepEqual(ruled, nativePlaced(file, '--rules'), `${name} --rules`);
    found += ruled.length;
  }
  assert.ok(found > 100, `${found} diagnostics compared`);
});

test('bytes that are not UTF-8 are reported as S000', () => {
  const bytes = new Uint8Array([...Buffer.from('[Variant "C\'escacs"]\n[Event "'), 0xff, ...Buffer.from('"]\n*\n')]);
  const document = session.openBytes(bytes);
  assert.equal(document.call('diagnostics')[0].code, 'S000');
  assert.ok(document.getText().includes('\uFFFD'));
  document.close();
});

test('a trap restarts the module: the documents are open again from the page\'s text, and the page is told', () => {
  const own = new Ctlpgn(session.module, new WebAssembly.Instance(session.module, {}));
  let pageText = fs.readFileSync(path.join(repository, 'tests', 'e2e', 'errors.ctl-pgn'), 'utf8');
  const document = own.open(pageText, { source: () => pageText });
  const other = own.open('[Variant "C\'escacs"]\n*\n');
  const before = document.call('diagnostics');
  assert.ok(before.length > 0);
  const end = { line: pageText.split('\n').length - 1, character: 0 };
  pageText += '{ unclosed\n';
  const told = [];
  own.onRestart((error) => told.push(error.message));
  // The next call traps inside the module, as a panic does (an out-of-bounds read here).
  const real = own.exports;
  own.exports = { ...real, ctlpgn_call: (_pointer, length) => real.ctlpgn_call(real.memory.buffer.byteLength - 2, length + 64) };
  // The change that trapped is not an error for the page: the text opened again holds it.
  document.change([{ range: { start: end, end }, text: '{ unclosed\n' }]);
  assert.equal(own.restarts, 1);
  assert.equal(told.length, 1);
  assert.match(told[0], /out of bounds/);
  // The new instance holds the page's text, the change with it, and the other document.
  assert.equal(document.getText(), pageText);
  assert.equal(document.version, 1);
  assert.ok(document.call('diagnostics').some((found) => found.code === 'N003' && found.line === end.line + 1));
  assert.equal(other.getText(), '[Variant "C\'escacs"]\n*\n');
  assert.notEqual(document.id, other.id);
});

test('a document whose text traps again on opening is left closed, and the rest live on', () => {
  const own = new Ctlpgn(session.module, new WebAssembly.Instance(session.module, {}));
  // Every instance traps on a request holding DOOMED, as a panic on that text would.
  const trapping = (exports) => ({
    ...exports,
    ctlpgn_call: (pointer, length) => {
      const request = Buffer.from(new Uint8Array(exports.memory.buffer, pointer, length)).toString();
      return request.includes('DOOMED') ? exports.ctlpgn_call(exports.memory.buffer.byteLength - 2, length + 64) : exports.ctlpgn_call(pointer, length);
    },
  });
  const first = own.open('[Variant "C\'escacs"]\n[Event "first"]\n*\n');
  const doomed = own.open('[Variant "C\'escacs"]\n*\n');
  const last = own.open('[Variant "C\'escacs"]\n[Event "last"]\n*\n');
  const real = WebAssembly.Instance;
  own.exports = trapping(own.exports);
  globalThis.WebAssembly.Instance = function (module, imports) {
    return { exports: trapping(new real(module, imports).exports) };
  };
  try {
    doomed.text = '[Variant "C\'escacs"]\n[Event "DOOMED"]\n*\n';
    assert.throws(() => doomed.call('text', { DOOMED: true }), (error) => error.code === 'restarted');
  } finally {
    globalThis.WebAssembly.Instance = real;
  }
  assert.equal(doomed.closed, true);
  assert.throws(() => doomed.call('text'), (error) => error.code === 'closed');
  // The documents opened before and after it are both in the instance that lives on.
  assert.equal(first.getText(), '[Variant "C\'escacs"]\n[Event "first"]\n*\n');
  assert.equal(last.getText(), '[Variant "C\'escacs"]\n[Event "last"]\n*\n');
  assert.equal(own.restarts, 1);
});

test('an error of the module is thrown with its code', () => {
  const document = session.open('[Variant "C\'escacs"]\n*\n');
  assert.throws(() => document.call('play', { version: 99, position: { line: 0, character: 0 }, move: 'E7-E13' }),
    (error) => error instanceof CtlpgnError && error.code === 'content-modified');
  assert.throws(() => session.call('nonsense', {}), (error) => error.code === 'unknown-method');
  document.close();
});

// The games that replay: not the handbook's bad examples, nor the example of mistakes.
const GAMES = [...records('testdata/examples'), ...records('examples')].filter((file) => !/^(bad-|mistakes)/.test(path.basename(file)));

/** The half-moves of every line of play of a `lines` answer, in the order of the lines. */
function halfMoves(answer) {
  return answer.lines.flatMap((line, index) => line.items.filter((item) => item.kind === 'halfMove').map((item) => ({ ...item, line: index })));
}

test('every half-move `lines` lists, in every line of play, shows the position `ctlpgn pdtl --at` gives there, at its ply', () => {
  let checked = 0;
  for (const file of GAMES) {
    const text = fs.readFileSync(file, 'utf8');
    const document = session.open(text);
    const answer = document.call('lines', {});
    assert.ok(answer.lines[0].items.some((item) => item.kind === 'halfMove'), file);
    for (const item of halfMoves(answer)) {
      const board = document.call('board', { position: item.range.start });
      const at = `${item.range.start.line + 1}:${cliColumn(text, item.range.start)}`;
      assert.equal(board.pdtl, pdtl(file, '--at', at), `${path.basename(file)} at ${at} (${item.label})`);
      assert.equal(board.ply, item.ply, `${path.basename(file)} at ${at}: ply`);
      checked += 1;
    }
    document.close();
  }
  assert.ok(checked > 50, `${checked} half-moves`);
});

test('`lines` reads variations, where they branch, comments and tags', () => {
  const file = path.join(repository, 'testdata', 'examples', '02-quick-mate-variations.ctl-pgn');
  const document = session.open(fs.readFileSync(file, 'utf8'));
  const answer = document.call('lines', {});
  document.close();
  const written = (item) => item.move + (item.annotation || '');
  const moves = (line) => line.items.filter((item) => item.kind === 'halfMove');
  const main = moves(answer.lines[0]);
  assert.deepEqual(main.slice(0, 4).map(written), ['H6-H12 ?!', 'I23-I19 ?!', 'JF6-C15 ?!', 'GH26-Z11 ?!']);
  assert.equal(written(main.at(-1)), 'GL5-H6#');
  // `($[2] 5. K4-K10 ??, GL5-H6+^ …)` replaces White's 5th half-move, I5-I9: it branches from
  // the ply before it, and its first half-move has I5-I9's ply.
  const i5 = main.find((item) => item.move === 'I5-I9');
  const variations = answer.lines.filter((line) => line.parent === 0 && line.ply === i5.ply - 1);
  assert.deepEqual(variations.map((line) => line.label), [1, 2]);
  const second = variations[1];
  assert.equal(written(moves(second)[0]), 'K4-K10 ??');
  assert.equal(moves(second)[0].ply, i5.ply);
  // Its nested `(6. …, GH6-K12)` replaces Black's 6th half-move of the variation.
  const secondIndex = answer.lines.indexOf(second);
  const gh6 = moves(second).find((item) => item.move === 'GH6×RI3');
  const nested = answer.lines.find((line) => line.parent === secondIndex);
  assert.equal(nested.ply, gh6.ply - 1);
  assert.equal(moves(nested)[0].move, 'GH6-K12');
  assert.ok(second.items.some((item) => item.kind === 'variation' && answer.lines[item.line] === nested));
  assert.ok(answer.lines[0].items.some((item) => item.kind === 'comment' && item.text.startsWith('Teaching record')));
  assert.equal(answer.tags.find((tag) => tag.name === 'Title').value, 'Quick mate with Knight and Pegasus');
  assert.equal(answer.result, '0-3');
});

test('`lines` chooses a record by number or place, and reads a broken record without failing', () => {
  const two = '[Variant "C\'escacs"]\n[White "A \\"B\\""]\n1. E7-E13:\n*\n[Variant "C\'escacs"]\n1. F8-F12:\n*\n';
  const document = session.open(two);
  const first = document.call('lines', {});
  assert.deepEqual(halfMoves(first).map((item) => item.move), ['E7-E13']);
  assert.deepEqual(first.tags[1], { name: 'White', value: 'A "B"' });
  assert.equal(first.records, 2);
  const second = document.call('lines', { record: 2 });
  assert.deepEqual(halfMoves(second).map((item) => [item.move, item.range.start.line]), [['F8-F12', 5]]);
  assert.equal(document.call('lines', { position: { line: 5, character: 0 } }).record, 2);
  assert.equal(document.call('lines', { record: 3 }), null);
  document.close();
  for (const broken of ['(((', ')))\n1. E7', '{ never closed\n1. E7-E13', '1. …, , ,\n(5. …, X)\n)']) {
    const opened = session.open('[Variant "C\'escacs"]\n' + broken);
    assert.equal(opened.call('lines', {}).record, 1, broken);
    opened.close();
  }
});

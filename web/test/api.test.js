// The glue (js/core.js) and the viewer's walk (js/record-walk.js) under Node, on the module
// build.sh put in dist/: the module's diagnostics are the native `ctlpgn check`'s on every
// test record; a trap restarts the module with the documents open again; the walk's
// half-moves, variations included, are where `ctlpgn pdtl --at` finds the same positions.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';

import { Ctlpgn, CtlpgnError } from '../js/core.js';
import { readRecord, heading } from '../js/record-walk.js';
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

test('every half-move the walk finds, in every line of play, shows the position `ctlpgn pdtl --at` gives there', () => {
  let checked = 0;
  for (const file of GAMES) {
    const text = fs.readFileSync(file, 'utf8');
    const record = readRecord(text);
    const document = session.open(text);
    assert.ok(record.main.moves.length > 0, file);
    for (const node of record.moves) {
      const answer = document.call('board', { position: node.place });
      const at = `${node.place.line + 1}:${cliColumn(text, node.place)}`;
      assert.equal(answer.pdtl, pdtl(file, '--at', at), `${path.basename(file)} at ${at} (${node.written})`);
      assert.equal(answer.ply, node.ply, `${path.basename(file)} at ${at}: ply`);
      checked += 1;
    }
    document.close();
  }
  assert.ok(checked > 50, `${checked} half-moves`);
});

test('the walk reads variations, what they replace, comments and tags', () => {
  const file = path.join(repository, 'testdata', 'examples', '02-quick-mate-variations.ctl-pgn');
  const record = readRecord(fs.readFileSync(file, 'utf8'));
  const main = record.main.moves.map((node) => node.written);
  assert.deepEqual(main.slice(0, 4), ['H6-H12 ?!', 'I23-I19 ?!', 'JF6-C15 ?!', 'GH26-Z11 ?!']);
  assert.equal(main.at(-1), 'GL5-H6#');
  // `($[2] 5. K4-K10 ??, GL5-H6+^ …)` replaces White's 5th half-move, I5-I9.
  const i5 = record.main.moves.find((node) => node.written.startsWith('I5-I9'));
  assert.deepEqual(i5.variations.map((line) => line.label), [1, 2]);
  const second = i5.variations[1];
  assert.equal(second.moves[0].written, 'K4-K10 ??');
  assert.equal(second.moves[0].prev, i5.prev);
  assert.equal(second.moves[0].ply, i5.ply);
  // Its nested `(6. …, GH6-K12)` replaces Black's 6th half-move of the variation.
  const nested = second.moves.find((node) => node.written === 'GH6×RI3').variations[0];
  assert.equal(nested.moves[0].written, 'GH6-K12');
  assert.equal(nested.parent, second);
  assert.ok(record.main.items.some((item) => item.comment && item.comment.text.startsWith('Teaching record')));
  assert.deepEqual(heading(record.tags), { players: 'Quick mate with Knight and Pegasus', event: '', result: '0-3' });
});

test('the walk stops at the next record, and reads a broken record without failing', () => {
  const two = '[Variant "C\'escacs"]\n[White "A \\"B\\""]\n1. E7-E13:\n*\n[Variant "C\'escacs"]\n1. F8-F12:\n*\n';
  const record = readRecord(two);
  assert.deepEqual(record.moves.map((node) => node.written), ['E7-E13:']);
  assert.equal(record.tags.get('White'), 'A "B"');
  assert.equal(record.end, 4);
  for (const broken of ['(((', ')))\n1. E7', '{ never closed\n1. E7-E13', '1. …, , ,\n(5. …, X)\n)']) {
    readRecord('[Variant "C\'escacs"]\n' + broken);
  }
});

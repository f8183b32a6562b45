// The playground and <ctlpgn-viewer> in Debian's Chromium, driven by Playwright as a person
// would: web/dist (build.sh) served on 127.0.0.1; records opened through the file input; the
// diagnostics, positions and plays compared with the native `ctlpgn` binary's; the record
// played by clicks downloaded and checked by `ctlpgn check`; the viewer stepped through by
// keys; hostile records shown without any of their text becoming HTML; every request kept to
// the page's origin. With CTLPGN_DOCS_SHOTS set, the screenshots the manual shows are written
// to docs/images (or to the folder it names).
//
// Environment: CHROMIUM (default /usr/bin/chromium), CTLPGN_BIN (default target/debug/ctlpgn).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import { chromium } from 'playwright-core';

import { serve } from './serve.js';
import { binary, check, checkStatus, dist, pdtl, repository } from './native.js';

// How long one step may wait for the page: a guard, never a pause.
const PATIENCE = 30_000;
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctlpgn-web-'));
const docsShots = process.env.CTLPGN_DOCS_SHOTS
  ? (fs.existsSync(process.env.CTLPGN_DOCS_SHOTS) && fs.statSync(process.env.CTLPGN_DOCS_SHOTS).isDirectory()
    ? path.resolve(process.env.CTLPGN_DOCS_SHOTS) : path.join(repository, 'docs', 'images'))
  : null;

const OPENING = path.join(repository, 'examples', 'opening.ctl-pgn');
const BROKEN = path.join(repository, 'testdata', 'examples', 'bad-02-coherence.ctl-pgn');
const VARIATIONS = path.join(repository, 'testdata', 'examples', '02-quick-mate-variations.ctl-pgn');
// Both sides ready to castle (handbook §9.8): the King on G1 goes to H6 by its leap or by one of
// several castlings, which the board asks to choose between.
const CASTLE = '[Variant "C\'escacs"]\n[Result "*"]\n\n1. H6-H10, H22-H18\n2. I5-I9, I23-I19\n3. EH4-H8, EH24-H20:\n*\n';
const UNFORMATTED = '[Variant "C\'escacs"]\n[Id "Demo-V01"]\n[Annotator "Vidàl, Àngel"]\n\n1.  E7-E13 ,  E21-E15\n2. F8‐F12, F20‐F16:\n*\n';

// The hostile records of core/src/ide/hover/markup_tests.rs: markup in tag values and names,
// player names, comments, a variation's label, half-moves and the PDTL.
const MARKUP = ['![t](https://x/t.png)', '<img src=x onerror=alert(1)>', '[l](javascript:alert(1))', '<https://x.org>', '**b**', '`c`', '~~s~~', '&lt;', 'a|b'];
const ALL = MARKUP.join(' ');
const HOSTILE = [
  '[Variant "C\'escacs"]\n[PDTL "/20:3k3/3:R3/1:1K/ ![t](https://x/t.png) -- - 0 1"]\n\n1. RC3-F6+, KF20-E21:\n*\n',
  '[Variant "C\'escacs"]\n[PDTL "/1:K<img src=x onerror=alert(1)>/0:k/ w &lt; [l](javascript:alert(1)) 0 1"]\n*\n',
  `[Variant "C'escacs"]\n[Event "${ALL}"]\n[White "${ALL} Pérez"]\n[Black "\`${ALL}"]\n[Dat<img> "x"]\n\n` +
    `1. K4-K6, E21-E19 $1\n{ ${ALL} ~F6 ~J[d] ~Y3 ~K<img> ~<b>F6 #1@W #14@B #9 }\n` +
    `($[1] 1. …, E21-E17 { ${ALL} })\n($[<b>x</b>] 1. …, E21-E15 ![t](https://x/t.png))\n` +
    `2. JF6-B18 { ${ALL} }, EE23-D20\n` +
    `3. NF6-<img>, EG23-F20 ![t](https://x/t.png)\n{ #1.1 #2 #3@W #3.1 #<img>@W }\n*\n`,
];

let site;
let browser;
let context;
let page;
/** Every URL any page of the context asked for. */
const requested = [];

/** Waits until `condition(arg)`, run in the page, holds; its value. */
async function until(on, condition, arg) {
  return (await on.waitForFunction(condition, arg, { timeout: PATIENCE })).jsonValue();
}

/** The editor's text, as the playground would download it. */
function editorText() {
  return page.evaluate(() => window.ctlpgnPlayground.text());
}

/** Opens a file through the file input, and waits for the page to show it. */
async function openFile(file) {
  const name = typeof file === 'string' ? path.basename(file) : file.name;
  await page.setInputFiles('#open', file);
  await until(page, (expected) => document.getElementById('file-name').textContent === expected, name);
}

/** How many lines the PDTL shown takes: one, the string a user copies. */
async function pdtlLines(on, root = 'document') {
  return on.evaluate((selector) => {
    const scope = selector === 'document' ? document : document.querySelector(selector).shadowRoot;
    const range = document.createRange();
    range.selectNodeContents(scope.querySelector('[data-pdtl]'));
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  }, root);
}

/** The PDTL the board shows, once it is `expected`. */
async function boardShows(on, expected, root = 'document') {
  return until(on, ([selector, pdtlText]) => {
    const scope = selector === 'document' ? document : document.querySelector(selector).shadowRoot;
    const shown = scope.querySelector('[data-pdtl]');
    return shown && shown.dataset.pdtl === pdtlText;
  }, [root, expected]);
}

async function screenshot(target, name) {
  const file = path.join(work, name);
  await target.screenshot({ path: file });
  if (docsShots) {
    fs.copyFileSync(file, path.join(docsShots, name));
  }
}

test.before(async () => {
  site = await serve(dist);
  browser = await chromium.launch({ executablePath });
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 860 } });
  context.on('request', (request) => requested.push(request.url()));
  // A record's script that ran would call alert: the page records it rather than blocking.
  await context.addInitScript(() => {
    window.alerted = [];
    window.alert = (text) => window.alerted.push(String(text));
  });
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(site.url + 'index.html');
  await page.waitForSelector('body[data-ready]', { timeout: PATIENCE });
});

test.after(async () => {
  await browser?.close();
  await site?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test('a broken record opened from a file shows its diagnostics at the lines `ctlpgn check` gives', async () => {
  await openFile(BROKEN);
  const listed = await page.$$eval('#diagnostics [data-code]', (items) => items.map((item) => [item.dataset.code, Number(item.dataset.line)]));
  const native = check(BROKEN).map((found) => [found.code, found.line]);
  assert.ok(native.length >= 5);
  assert.deepEqual(listed, native);
  // Underlined in the editor too; a click on one puts the cursor on its line.
  assert.ok(await page.locator('.cm-lintRange-error').count() > 0);
  const [code, line] = native[3];
  await page.click(`#diagnostics [data-code="${code}"][data-line="${line}"]`);
  const cursorLine = await page.evaluate(() => {
    const { state } = window.ctlpgnPlayground.view;
    return state.doc.lineAt(state.selection.main.head).number;
  });
  assert.equal(cursorLine, line);
});

test('bytes that are not UTF-8 are opened and reported as S000', async () => {
  const buffer = Buffer.concat([Buffer.from('[Variant "C\'escacs"]\n[Event "'), Buffer.from([0xc3, 0x28]), Buffer.from('"]\n*\n')]);
  await openFile({ name: 'latin.ctl-pgn', mimeType: 'text/plain', buffer });
  await page.waitForSelector('#diagnostics [data-code="S000"][data-line="1"]', { timeout: PATIENCE });
  assert.ok((await editorText()).includes('\uFFFD'));
});

test('a click on a move shows its PDTL; ← on the board goes back one half-move', async () => {
  await openFile(OPENING);
  await page.click('[data-ply="5"]');
  await boardShows(page, pdtl(OPENING, '--ply', '5'));
  assert.equal(await pdtlLines(page), 1, 'the PDTL on one line');
  await page.locator('.ctlpgn-view [data-action=previous]').focus();
  await page.keyboard.press('ArrowLeft');
  await boardShows(page, pdtl(OPENING, '--ply', '4'));
  assert.equal(await page.locator('[data-ply][aria-current=step]').textContent(), '2. …, F20-F16');
  await page.keyboard.press('End');
  await boardShows(page, pdtl(OPENING, '--ply', '12'));
});

test('the move list shows the variations and comments; a click in a variation moves the board there', async () => {
  await openFile(VARIATIONS);
  await until(page, () => [...document.querySelectorAll('#move-tree .comment')].some((comment) => comment.textContent.startsWith('Teaching record')));
  // `($[2] 5. K4-K10 ??, GL5-H6+^ …)`: its second half-move, inside the variation.
  const inVariation = page.locator('#move-tree .variation [data-ply]', { hasText: 'GL5-H6+^' });
  assert.equal(await inVariation.count(), 1);
  const variation = await inVariation.getAttribute('data-variation');
  assert.notEqual(variation, '0');
  assert.equal(await inVariation.getAttribute('data-ply'), '10');
  await inVariation.click();
  const text = fs.readFileSync(VARIATIONS, 'utf8').split('\n');
  const line = text.findIndex((row) => row.includes('GL5-H6+^'));
  await boardShows(page, pdtl(VARIATIONS, '--at', `${line + 1}:${text[line].indexOf('GL5-H6+^') + 1}`));
  await until(page, () => document.querySelector('#move-tree [aria-current]')?.textContent === 'GL5-H6+^');
  assert.equal(await page.locator('#move-tree [aria-current]').getAttribute('data-variation'), variation);
  // A main-line half-move: the board goes back to the main line.
  await page.locator('#move-tree [data-variation="0"][data-ply="3"]').click();
  await boardShows(page, pdtl(VARIATIONS, '--ply', '3'));
  assert.equal(await page.locator('#records').isHidden(), true, 'one record: no chooser');
});

test('↓ enters the variation at the half-move shown and ↑ leaves it, as on lichess; ? lists the keys', async () => {
  await openFile(VARIATIONS);
  await until(page, () => document.querySelector('#move-tree .variation .move') !== null);
  // The half-move a variation is an alternative to: the last one written before its block.
  const before = await page.evaluate(() => {
    const variation = document.querySelector('#move-tree .main > .variation');
    let move = variation.previousElementSibling;
    while (!move.classList.contains('move')) {
      move = move.previousElementSibling;
    }
    return { ply: move.dataset.ply, first: variation.querySelector('.move').textContent, text: move.textContent };
  });
  await page.locator(`#move-tree .main > [data-ply="${before.ply}"][data-variation="0"]`).click();
  await until(page, (text) => document.querySelector('#move-tree [aria-current]')?.textContent === text, before.text);
  await page.keyboard.press('ArrowDown');
  await until(page, (first) => document.querySelector('#move-tree [aria-current]')?.textContent === first, before.first);
  assert.notEqual(await page.locator('#move-tree [aria-current]').getAttribute('data-variation'), '0');
  await page.keyboard.press('ArrowUp');
  await until(page, (text) => document.querySelector('#move-tree [aria-current]')?.textContent === text, before.text);
  assert.equal(await page.locator('#move-tree [aria-current]').getAttribute('data-variation'), '0');
  await page.keyboard.press('?');
  await page.waitForSelector('#keys-help[open]', { timeout: PATIENCE });
  assert.match(await page.locator('#keys-help').textContent(), /into a variation/);
  await page.keyboard.press('Escape');
  await page.waitForSelector('#keys-help:not([open])', { state: 'attached', timeout: PATIENCE });
});

test('a file of several records offers a chooser; the second record chosen is shown in the list and on the board', async () => {
  const opening = fs.readFileSync(OPENING, 'utf8');
  const second = '[Variant "C\'escacs"]\n[White "Second, White"]\n[Black "Second, Black"]\n\n1. E7-E9, E21-E19\n(1. …, F20-F16)\n2. F8-F12:\n*\n';
  const file = path.join(work, 'two-games.ctl-pgn');
  fs.writeFileSync(file, `${opening.trimEnd()}\n\n${second}`);
  await openFile(file);
  await until(page, () => !document.getElementById('records').hidden && document.getElementById('records').options.length === 2);
  assert.equal(await page.locator('#records').getAttribute('data-record'), '1');
  await page.selectOption('#records', '2');
  await until(page, () => document.getElementById('records').dataset.record === '2');
  assert.equal(await page.locator('#records option[data-record="2"]').textContent(), 'Game 2: Second, White – Second, Black');
  await boardShows(page, pdtl(file, '--record', '2', '--ply', '0'));
  const moves = await page.locator('#move-tree [data-ply]').allTextContents();
  assert.deepEqual(moves, ['E7-E9', 'E21-E19', 'F20-F16', 'F8-F12:']);
  await page.locator('#move-tree button[data-variation="1"]', { hasText: 'F20-F16' }).click();
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  // The second record's variation, not the first record's F20-F16.
  const line = lines.findLastIndex((row) => row.includes('F20-F16'));
  await boardShows(page, pdtl(file, '--at', `${line + 1}:${lines[line].indexOf('F20-F16') + 1}`));
  await screenshot(page.locator('.board-pane'), 'web-playground-lines.png');
});

test('keys with the focus on the page: → and ← step, End goes to the end, f flips (data-flipped)', async () => {
  await openFile(OPENING);
  await page.click('[data-ply="5"]');
  await boardShows(page, pdtl(OPENING, '--ply', '5'));
  await page.evaluate(() => {
    document.activeElement?.blur();
  });
  await page.keyboard.press('ArrowRight');
  await boardShows(page, pdtl(OPENING, '--ply', '6'));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await boardShows(page, pdtl(OPENING, '--ply', '4'));
  await page.keyboard.press('End');
  await boardShows(page, pdtl(OPENING, '--ply', '12'));
  assert.equal(await page.locator('.ctlpgn-board-box svg').getAttribute('data-flipped'), 'false');
  const names = await page.$$eval('.ctlpgn-board-box [data-piece]', (pieces) => pieces.map((piece) => piece.getAttribute('aria-label')));
  assert.ok(names.includes('White King on G1'), names.join(', '));
  assert.ok(names.every((name) => /^(White|Black) [A-Z][a-z]+ on [A-Z]{1,2}[0-9]+$/.test(name)), names.join(', '));
  await page.keyboard.press('f');
  await until(page, () => document.querySelector('.ctlpgn-board-box svg')?.dataset.flipped === 'true');
  await page.keyboard.press('f');
  await until(page, () => document.querySelector('.ctlpgn-board-box svg')?.dataset.flipped === 'false');
});

test('a line longer than the board lists: End goes to its last half-move, a click in the list to its own', async () => {
  // 240 half-moves (knights out and back); the board lists 200 of them around the place.
  const moves = Array.from({ length: 60 }, (_, index) => `${2 * index + 1}. NE3-C7, NE25-C21\n${2 * index + 2}. NC7-E3, NC21-E25`);
  const long = path.join(work, 'long.ctl-pgn');
  fs.writeFileSync(long, `[Variant "C'escacs"]\n[Event "?"]\n[Result "*"]\n\n${moves.join('\n')}:\n*\n`);
  await openFile(long);
  await page.click('[data-ply="1"]');
  await boardShows(page, pdtl(long, '--ply', '1'));
  await page.locator('.ctlpgn-view [data-action=next]').focus();
  await page.keyboard.press('End');
  await boardShows(page, pdtl(long, '--ply', '240'));
  assert.equal(await page.locator('[data-ply][aria-current=step]').getAttribute('data-ply'), '240');
  assert.equal(await page.locator('.ctlpgn-elided').textContent(), '… 40 half-moves before (Home goes to the first)');
  await page.click('[data-ply="100"]');
  await boardShows(page, pdtl(long, '--ply', '100'));
  await page.locator('.ctlpgn-view [data-action=next]').click();
  await boardShows(page, pdtl(long, '--ply', '101'));
});

test('a new game played by clicks downloads a record `ctlpgn check` accepts', async () => {
  await page.click('#new-game');
  await until(page, () => document.querySelector('[data-turn]')?.dataset.turn === 'w');
  for (const [from, to] of [['E7', 'E13'], ['E21', 'E15'], ['F8', 'F12']]) {
    const shown = await page.locator('.ctlpgn-view').getAttribute('data-shown');
    await page.click(`[data-piece][data-hex="${from}"]`);
    await page.click(`[data-target="${to}"]`);
    await until(page, (before) => document.querySelector('.ctlpgn-view').dataset.shown !== before, shown);
  }
  const text = await editorText();
  assert.match(text, /\n1\. E7-E13, E21-E15\n2\. F8-F12:\n\*\n$/);
  // For the manual: Black's pawn on F20 picked, its destinations marked.
  await page.click('[data-piece][data-hex="F20"]');
  await page.waitForSelector('[data-target]', { timeout: PATIENCE });
  await screenshot(page, 'web-playground.png');
  await page.click('#diagnostics-count');
  await until(page, () => document.querySelector('[data-target]') === null);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action=download]')]);
  const saved = path.join(work, download.suggestedFilename());
  await download.saveAs(saved);
  assert.equal(fs.readFileSync(saved, 'utf8'), text);
  const { status, output } = checkStatus(saved);
  assert.equal(status, 0, output);
  // Undo takes the last half-move back as one change.
  await page.locator('.cm-content').focus();
  await page.keyboard.press('Control+z');
  await until(page, () => !window.ctlpgnPlayground.text().includes('F8-F12'));
});

test('several half-moves to one hex are offered as choices, and the one chosen is written', async () => {
  await openFile({ name: 'castle.ctl-pgn', mimeType: 'text/plain', buffer: Buffer.from(CASTLE) });
  await page.click('[data-ply="6"]');
  await until(page, () => document.querySelector('[data-turn]')?.dataset.turn === 'w');
  await page.click('[data-piece][data-hex="G1"]');
  await page.click('[data-target="H6"]');
  const choices = await page.$$eval('[data-choice]', (buttons) => buttons.map((button) => button.dataset.choice));
  assert.ok(choices.length >= 2, choices.join(' '));
  const chosen = choices.at(-1);
  await page.click(`[data-choice="${chosen}"]`);
  await until(page, (text) => window.ctlpgnPlayground.text().includes(`4. ${text}`), chosen);
});

test('hover shows the module\'s text; completion offers the legal moves; Format formats as `ctlpgn fmt`', async () => {
  await openFile(OPENING);
  const at = await page.evaluate(() => {
    const { view } = window.ctlpgnPlayground;
    const offset = view.state.doc.toString().indexOf('E13×F16');
    const box = view.coordsAtPos(offset + 2);
    return { x: box.left + 1, y: (box.top + box.bottom) / 2 };
  });
  await page.mouse.move(at.x, at.y);
  const hover = await page.waitForSelector('.cm-tooltip-hover .hover pre', { timeout: PATIENCE });
  assert.match(await hover.textContent(), /E13×F16/);
  await page.mouse.move(0, 0);

  await page.click('#new-game');
  await page.keyboard.type('1. E7-');
  await page.waitForSelector('.cm-tooltip-autocomplete', { timeout: PATIENCE });
  const offered = await page.$$eval('.cm-tooltip-autocomplete li', (items) => items.map((item) => item.textContent));
  assert.ok(offered.some((item) => item.startsWith('E7-E13')), offered.join(' | '));
  await page.keyboard.press('Escape');

  await openFile({ name: 'unformatted.ctl-pgn', mimeType: 'text/plain', buffer: Buffer.from(UNFORMATTED) });
  await page.click('#format');
  const formatted = execFileSync(binary, ['fmt', '-'], { input: UNFORMATTED, encoding: 'utf8' });
  await until(page, (expected) => window.ctlpgnPlayground.text() === expected, formatted);
});

test('a record shared by URL opens from the link', async () => {
  await openFile(VARIATIONS);
  await page.click('#share');
  const url = await until(page, () => location.hash.startsWith('#record=') && location.href);
  const other = await context.newPage();
  await other.goto(url);
  await other.waitForSelector('body[data-ready]', { timeout: PATIENCE });
  assert.equal(await other.evaluate(() => window.ctlpgnPlayground.text()), fs.readFileSync(VARIATIONS, 'utf8'));
  await other.close();
  await page.goto(site.url + 'index.html');
  await page.waitForSelector('body[data-ready]', { timeout: PATIENCE });
});

test('a trap in the module restarts it with the text kept, and the page says so', async () => {
  await openFile(OPENING);
  // The next request traps inside the module (an out-of-bounds read), as a panic does.
  await page.evaluate(() => {
    const { session } = window.ctlpgnPlayground;
    const real = session.exports;
    session.exports = { ...real, ctlpgn_call: (_pointer, length) => real.ctlpgn_call(real.memory.buffer.byteLength - 2, length + 64) };
  });
  await page.locator('.cm-content').focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n7. E8-E9');
  await until(page, () => !document.getElementById('notice').hidden && /restarted/.test(document.getElementById('notice').textContent));
  // The new instance has the text typed, the change that trapped included, and answers: the
  // diagnostics `ctlpgn check` gives for it.
  const typed = path.join(work, 'typed.ctl-pgn');
  fs.writeFileSync(typed, await editorText());
  const expected = check(typed).map((found) => `${found.code}:${found.line}`);
  assert.ok(expected.length > 0);
  await until(page, (codes) => JSON.stringify([...document.querySelectorAll('#diagnostics [data-code]')].map((item) => `${item.dataset.code}:${item.dataset.line}`)) === codes, JSON.stringify(expected));
  assert.equal(await page.evaluate(() => window.ctlpgnPlayground.session.restarts), 1);
  assert.equal(await page.evaluate(() => window.ctlpgnPlayground.document.getText()), await editorText());
});

test('hostile records never become HTML: tags, comments, labels and moves stay text', async () => {
  let hovered = 0;
  let markup = 0;
  for (const [index, record] of HOSTILE.entries()) {
    await openFile({ name: `hostile-${index}.ctl-pgn`, mimeType: 'text/plain', buffer: Buffer.from(record) });
    // Hover where the markup is, and open completion there.
    const offsets = [...record.matchAll(/<img|!\[t\]|\[l\]|<b>/g)].map((match) => match.index + 1);
    for (const offset of offsets) {
      const at = await page.evaluate((target) => {
        const { view, document: opened } = window.ctlpgnPlayground;
        view.dispatch({ selection: { anchor: target }, scrollIntoView: true });
        const line = view.state.doc.lineAt(target);
        const found = opened.call('hover', { position: { line: line.number - 1, character: target - line.from }, markdown: false });
        const box = view.coordsAtPos(target);
        return found && box && { x: box.left + 1, y: (box.top + box.bottom) / 2, contents: found.contents };
      }, offset);
      if (at) {
        // The module has a hover there: the tooltip shows its text, as text.
        await page.mouse.move(at.x, at.y);
        await until(page, (contents) => [...document.querySelectorAll('.cm-tooltip-hover .hover pre')].some((pre) => pre.textContent === contents), at.contents);
        hovered += 1;
        markup += MARKUP.some((written) => at.contents.includes(written)) ? 1 : 0;
        await page.mouse.move(0, 0);
        await until(page, () => document.querySelector('.cm-tooltip-hover') === null);
      }
    }
    await page.locator('.cm-content').focus();
    await page.keyboard.press('Control+Space');
    const live = await page.evaluate(() => {
      const found = [];
      const roots = [document];
      while (roots.length > 0) {
        const root = roots.pop();
        for (const element of root.querySelectorAll('*')) {
          if (element.shadowRoot) {
            roots.push(element.shadowRoot);
          }
          const name = element.localName;
          // The page's own link: the licences in the footer.
          const own = name === 'a' && element.getAttribute('href') === 'THIRD-PARTY-LICENSES.txt';
          if (['img', 'a', 'iframe', 'object', 'embed', 'image', 'foreignobject', 'b'].includes(name) && !own) {
            found.push(name);
          }
          if (name === 'script' && !/\/(playground|ctlpgn-viewer)\.js$/.test(element.src)) {
            found.push('script ' + element.src);
          }
          for (const attribute of element.attributes) {
            if (attribute.name.startsWith('on')) {
              found.push(`${name}[${attribute.name}]`);
            }
          }
        }
      }
      return found;
    });
    assert.deepEqual(live, [], `record ${index}`);
  }
  assert.ok(hovered >= 3 && markup >= 2, `${hovered} hovers, ${markup} with markup`);
  // The markup shows as written: in the diagnostics' messages and the hovers' text.
  const shownText = await page.evaluate(() => document.body.innerText);
  assert.ok(shownText.includes('<img>'), 'a tag name with <img> shows as text');
  assert.deepEqual(await page.evaluate(() => window.alerted), []);
});

test('the viewer shows the players and steps through a game and its variations by keys', async () => {
  const viewer = await context.newPage();
  const asked = [];
  viewer.on('request', (request) => asked.push(request.url()));
  await viewer.goto(site.url + 'viewer.html');
  await viewer.waitForSelector('#inline[data-ready]', { timeout: PATIENCE });
  await viewer.waitForSelector('#from-file[data-ready]', { timeout: PATIENCE });
  // The second viewer read its record from `src`; both share one module.
  assert.equal(await viewer.locator('#from-file .players').textContent(), 'Puig, Anna – Vidàl, Marc');
  await boardShows(viewer, pdtl(OPENING, '--ply', '0'), '#from-file');
  assert.equal(asked.filter((url) => url.endsWith('/ctlpgn_web.wasm')).length, 1, 'one module for both viewers');
  // `ply="7"` opened it at the 7th half-move.
  assert.equal(await viewer.locator('#inline').getAttribute('data-ply'), '7');
  await boardShows(viewer, pdtl(VARIATIONS, '--ply', '7'), '#inline');
  assert.equal(await pdtlLines(viewer, '#inline'), 1, 'the PDTL on one line');
  await screenshot(viewer.locator('#inline'), 'web-viewer.png');
  await viewer.locator('#inline').focus();
  const current = () => viewer.locator('#inline [aria-current=step]').textContent();
  await viewer.keyboard.press('ArrowRight');
  await boardShows(viewer, pdtl(VARIATIONS, '--ply', '8'), '#inline');
  assert.equal(await current(), 'GZ11-L5');
  // ↓: into the first variation of the next half-move (5. I5-I9): `($[1] 5. GD2-F6)`.
  await viewer.keyboard.press('ArrowDown');
  assert.equal(await current(), 'GD2-F6');
  // ↓ again: the next variation beside it, `($[2] 5. K4-K10 ??, …)`; → goes on in it.
  await viewer.keyboard.press('ArrowDown');
  assert.equal(await current(), 'K4-K10 ??');
  await viewer.keyboard.press('ArrowRight');
  assert.equal(await current(), 'GL5-H6+^');
  const text = fs.readFileSync(VARIATIONS, 'utf8');
  const line = text.split('\n').findIndex((row) => row.includes('GL5-H6+^'));
  await boardShows(viewer, pdtl(VARIATIONS, '--at', `${line + 1}:${text.split('\n')[line].indexOf('GL5-H6+^') + 1}`), '#inline');
  // ↑: out of the variation, back where it branched.
  await viewer.keyboard.press('ArrowUp');
  assert.equal(await current(), 'GZ11-L5');
  await viewer.keyboard.press('Home');
  await boardShows(viewer, pdtl(VARIATIONS, '--ply', '0'), '#inline');
  await viewer.keyboard.press('End');
  await boardShows(viewer, pdtl(VARIATIONS, '--ply', '12'), '#inline');
  // The play button steps through the game from the start.
  await viewer.click('#inline [data-action=first]');
  await viewer.click('#inline [data-action=play]');
  await until(viewer, () => Number(document.getElementById('inline').dataset.ply) >= 2);
  await viewer.click('#inline [data-action=play]');
  assert.equal(await viewer.locator('#inline [data-action=play]').getAttribute('aria-pressed'), 'false');
  // A click on a move goes there.
  await viewer.click('#inline [data-ply="3"]');
  await boardShows(viewer, pdtl(VARIATIONS, '--ply', '3'), '#inline');
  await viewer.close();
});

test('a viewer with record="2" shows the second game of its file, and follows a change of the attribute', async () => {
  const viewer = await context.newPage();
  await viewer.goto(site.url + 'viewer.html');
  await viewer.waitForSelector('#inline[data-ready]', { timeout: PATIENCE });
  const two = '[Variant "C\'escacs"]\n[White "First"]\n[Black "Game"]\n\n1. K4-K6:\n*\n\n[Variant "C\'escacs"]\n[White "Second"]\n[Black "Game"]\n\n1. E7-E9, E21-E19:\n(1. …, F20-F16)\n*\n';
  await viewer.evaluate((text) => {
    const element = document.createElement('ctlpgn-viewer');
    element.id = 'chosen';
    element.setAttribute('record', '2');
    element.textContent = text;
    document.body.append(element);
  }, two);
  await viewer.waitForSelector('#chosen[data-ready]', { timeout: PATIENCE });
  assert.equal(await viewer.locator('#chosen .players').textContent(), 'Second – Game');
  assert.equal(await viewer.locator('#chosen').getAttribute('data-record'), '2');
  await viewer.click('#chosen .variation [data-ply="2"]');
  const file = path.join(work, 'viewer-two.ctl-pgn');
  fs.writeFileSync(file, two);
  await boardShows(viewer, pdtl(file, '--at', '13:8'), '#chosen');
  await viewer.evaluate(() => document.getElementById('chosen').setAttribute('record', '1'));
  await until(viewer, () => document.getElementById('chosen').dataset.record === '1');
  assert.equal(await viewer.locator('#chosen .players').textContent(), 'First – Game');
  await viewer.close();
});

test('a hostile record in a viewer stays text', async () => {
  const viewer = await context.newPage();
  await viewer.goto(site.url + 'viewer.html');
  await viewer.waitForSelector('#inline[data-ready]', { timeout: PATIENCE });
  await viewer.evaluate((records) => {
    for (const [index, record] of records.entries()) {
      const element = document.createElement('ctlpgn-viewer');
      element.id = `hostile-${index}`;
      element.textContent = record;
      document.body.appendChild(element);
    }
  }, HOSTILE);
  for (const index of HOSTILE.keys()) {
    await viewer.waitForSelector(`#hostile-${index}[data-ready]`, { timeout: PATIENCE });
  }
  await viewer.locator('#hostile-2').focus();
  await viewer.keyboard.press('End');
  const found = await viewer.evaluate(() => {
    const names = [];
    for (const host of document.querySelectorAll('ctlpgn-viewer')) {
      for (const element of host.shadowRoot.querySelectorAll('*')) {
        if (['img', 'a', 'script', 'iframe', 'image', 'foreignobject', 'b'].includes(element.localName)) {
          names.push(element.localName);
        }
      }
    }
    return names;
  });
  assert.deepEqual(found, []);
  const players = await viewer.locator('#hostile-2 .players').textContent();
  assert.ok(players.includes('<img src=x onerror=alert(1)>'), players);
  const comment = await viewer.locator('#hostile-2 .comment').first().textContent();
  assert.ok(comment.includes('[l](javascript:alert(1))'), comment);
  assert.deepEqual(await viewer.evaluate(() => window.alerted), []);
  await viewer.close();
});

test('at a phone\'s width the board stands under the editor, and nothing is wider than the screen', async () => {
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(site.url + 'index.html');
  await phone.waitForSelector('body[data-ready]', { timeout: PATIENCE });
  const layout = await phone.evaluate(() => ({
    editor: document.querySelector('.editor-pane').getBoundingClientRect().bottom,
    board: document.querySelector('.board-pane').getBoundingClientRect().top,
    width: document.documentElement.scrollWidth,
  }));
  assert.ok(layout.board >= layout.editor, JSON.stringify(layout));
  assert.ok(layout.width <= 390, JSON.stringify(layout));
  const small = await phone.$$eval('.actions button, .actions .button, .ctlpgn-toolbar button, .ctlpgn-pdtl-row button', (buttons) => buttons
    .map((button) => ({ text: button.textContent, box: button.getBoundingClientRect() }))
    .filter(({ box }) => box.height < 44 || box.width < 44)
    .map(({ text, box }) => `${text} ${box.width}x${box.height}`));
  assert.deepEqual(small, [], 'buttons at least 44 pixels');
  await screenshot(phone, 'playground-phone.png');
  await phone.close();
});

test('with the system in dark mode the page, the editor and the problems are dark', async () => {
  const dark = await context.newPage();
  await dark.emulateMedia({ colorScheme: 'dark' });
  await dark.goto(site.url + 'index.html');
  await dark.waitForSelector('body[data-ready]', { timeout: PATIENCE });
  /** The lightness (0 to 255, the mean of the channels) of an element's computed colour. */
  const lightness = (selector, property) => dark.evaluate(([chosen, name]) => {
    const value = getComputedStyle(document.querySelector(chosen))[name];
    const channels = value.match(/[0-9.]+/g).slice(0, 3).map(Number);
    return channels.reduce((sum, channel) => sum + channel, 0) / 3;
  }, [selector, property]);
  for (const selector of ['body', '#editor .cm-editor']) {
    assert.ok(await lightness(selector, 'backgroundColor') < 60, `${selector} has a dark background`);
    assert.ok(await lightness(selector, 'color') > 180, `${selector} has a light text`);
  }
  await screenshot(dark, 'playground-dark.png');
  await dark.close();
});

test('the colours chosen in the header win over the system\'s, draw the board in them, and are kept for the next visit', async () => {
  const page = await context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(site.url + 'index.html');
  await page.waitForSelector('body[data-ready]', { timeout: PATIENCE });
  const state = () => page.evaluate(() => ({
    dark: document.documentElement.classList.contains('dark'),
    board: document.querySelector('#board svg')?.getAttribute('data-theme'),
    background: getComputedStyle(document.body).backgroundColor,
  }));
  assert.deepEqual((await state()).dark, false, 'auto follows the light system');
  await page.selectOption('#theme', 'dark');
  await page.waitForSelector('#board svg[data-theme="dark"]', { timeout: PATIENCE });
  const dark = await state();
  assert.equal(dark.dark, true);
  assert.notEqual(dark.background, 'rgb(250, 250, 250)', 'the page is no longer light');
  // The next visit, the system still light: the reader's choice is kept.
  await page.reload();
  await page.waitForSelector('body[data-ready]', { timeout: PATIENCE });
  await page.waitForSelector('#board svg[data-theme="dark"]', { timeout: PATIENCE });
  assert.equal(await page.inputValue('#theme'), 'dark');
  // Light on a dark system.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.selectOption('#theme', 'light');
  await page.waitForSelector('#board svg[data-theme="light"]', { timeout: PATIENCE });
  assert.equal((await state()).dark, false);
  await page.selectOption('#theme', 'auto');
  await page.waitForSelector('#board svg[data-theme="dark"]', { timeout: PATIENCE });
  await page.close();
});

test('the playground works opened from the folder (file:), with the module beside it', async () => {
  const offline = await browser.newContext();
  const local = [];
  offline.on('request', (request) => local.push(request.url()));
  const folderPage = await offline.newPage();
  await folderPage.goto('file://' + path.join(dist, 'index.html'));
  await folderPage.waitForSelector('body[data-ready]', { timeout: PATIENCE });
  await boardShows(folderPage, pdtl(OPENING, '--ply', '6'));
  assert.deepEqual(local.filter((url) => !url.startsWith('file://') && !url.startsWith('data:')), []);
  await offline.close();
});

test('no request left the page\'s origin', () => {
  assert.ok(requested.length > 5);
  const outside = requested.filter((url) => !url.startsWith(site.url) && !url.startsWith('data:') && !url.startsWith('blob:' + site.url.slice(0, -1)));
  assert.deepEqual(outside, []);
});

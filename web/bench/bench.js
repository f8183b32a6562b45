// The web's budgets, measured (a benchmark, not a test: it prints, it never fails on a time):
// the module's size gzipped; the playground usable after a load from localhost; a keystroke
// to its diagnostics on the 2 MB benchmark file (test-support's corpus_file(2000)); and
// checking that file in the module (Chromium and Node) beside the native binary.
//
// Environment: CHROMIUM (default /usr/bin/chromium), CTLPGN_BENCH_BIN (the native binary,
// default target/release/ctlpgn), CTLPGN_BENCH_RUNS (loads and checks, default 7),
// CTLPGN_BENCH_KEYS (keystrokes, default 40).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { Ctlpgn } from '../js/core.js';
import { serve } from '../test/serve.js';
import { best, corpusFile, kb, median, ms, p95 } from './figures.js';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repository = path.resolve(web, '..');
const dist = path.join(web, 'dist');
const native = path.resolve(process.env.CTLPGN_BENCH_BIN || path.join(repository, 'target', 'release', 'ctlpgn'));
const runs = Number(process.env.CTLPGN_BENCH_RUNS || 7);
const keys = Number(process.env.CTLPGN_BENCH_KEYS || 40);

const rows = [];
const row = (what, figure, aim = '') => {
  rows.push([what, figure, aim]);
  console.error(`  ${what}: ${figure}`);
};

// The shipped files' sizes, gzipped by the gzip command as `gzip -9 | wc -c` measures a file
// (Node's zlib at level 9 writes about 1.6% more for the module), in bytes: KB here are 1,000.
const gzipped = (name) => spawnSync('gzip', ['-9', '-n', '-c', path.join(dist, name)], { maxBuffer: 1 << 26 }).stdout.length;
const wasm = fs.readFileSync(path.join(dist, 'ctlpgn_web.wasm'));
const wasmGzipped = gzipped('ctlpgn_web.wasm');
row('ctlpgn_web.wasm, raw / gzip -9 / brotli', `${kb(wasm.length)} / ${kb(wasmGzipped)} (${wasmGzipped.toLocaleString('en')} bytes) / ${kb(zlib.brotliCompressSync(wasm).length)}`, '≤ 350 KB gzipped');
row('playground.js (CodeMirror and the page), gzipped', kb(gzipped('playground.js')));
row('ctlpgn-viewer.js, gzipped', kb(gzipped('ctlpgn-viewer.js')));

const text = corpusFile(2000);
const file = path.join(os.tmpdir(), `ctlpgn-bench-${process.pid}.ctl-pgn`);
fs.writeFileSync(file, text);
console.error(`benchmark file: ${(Buffer.byteLength(text) / 1e6).toFixed(2)} MB`);

const site = await serve(dist, { '/bench.ctl-pgn': text });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
let inPage;
try {
  // Usable after load: from the navigation's start to the page ready (the module compiled and
  // instantiated, the sample record checked and its board drawn), in a fresh context each time.
  const loads = [];
  for (let run = 0; run < runs; run += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(site.url + 'index.html');
    await page.waitForSelector('body[data-ready]');
    loads.push(await page.evaluate(() => Number(document.body.dataset.readyAt)));
    await context.close();
  }
  row('playground usable after load from localhost (median, best)', `${ms(median(loads))}, ${ms(best(loads))}`, '≤ 1 s');

  // A keystroke to its diagnostics on the 2 MB file: from the key's event to the list and the
  // underlines redrawn with the new version's diagnostics.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(site.url + 'index.html');
  await page.waitForSelector('body[data-ready]');
  const opened = Date.now();
  await page.setInputFiles('#open', { name: 'bench.ctl-pgn', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.getElementById('file-name').textContent === 'bench.ctl-pgn', null, { timeout: 120_000 });
  row('opening the 2 MB file in the playground (file input to diagnostics and board)', ms(Date.now() - opened));
  await page.evaluate(() => {
    const { view } = window.ctlpgnPlayground;
    const doc = view.state.doc.toString();
    // A half-move in the middle of the file.
    const at = doc.indexOf('\n10. ', doc.length / 2) + 5;
    view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    view.focus();
    window.keyAt = 0;
    document.addEventListener('keydown', () => {
      window.keyAt = performance.now();
    }, { capture: true });
  });
  const latencies = [];
  for (let key = 0; key < keys; key += 1) {
    const version = await page.evaluate(() => document.getElementById('diagnostics').dataset.version);
    await page.keyboard.press(key % 2 === 0 ? 'x' : 'Backspace');
    await page.waitForFunction((before) => document.getElementById('diagnostics').dataset.version !== before, version);
    latencies.push(await page.evaluate(() => Number(document.getElementById('diagnostics').dataset.doneAt) - window.keyAt));
  }
  row(`keystroke → diagnostics shown, 2 MB file (${keys} keys: median / p95)`, `${ms(median(latencies))} / ${ms(p95(latencies))}`, '≤ 50 ms');

  // `check` of the file in the module, in the page: open (every record read and checked) and
  // the diagnostics listed.
  inPage = await page.evaluate(async ({ count }) => {
    const source = await (await fetch('bench.ctl-pgn')).text();
    const { session } = window.ctlpgnPlayground;
    const bytes = new TextEncoder().encode(source);
    const times = { text: [], bytes: [], check: [], rules: [] };
    for (let run = 0; run < count; run += 1) {
      // From the file's bytes, as the command reads a file (and a page a file it is given).
      let started = performance.now();
      session.check(bytes);
      times.check.push(performance.now() - started);
      started = performance.now();
      session.check(bytes, { rules: true });
      times.rules.push(performance.now() - started);
      started = performance.now();
      const document = session.open(source);
      document.call('diagnostics');
      times.text.push(performance.now() - started);
      document.close();
      started = performance.now();
      const fromBytes = session.openBytes(bytes);
      fromBytes.call('diagnostics');
      times.bytes.push(performance.now() - started);
      fromBytes.close();
    }
    return times;
  }, { count: runs });
  row('`check` of the 2 MB file\'s bytes in wasm, Chromium: the command\'s analysis, no document (median, best)', `${ms(median(inPage.check))}, ${ms(best(inPage.check))}`);
  row('the same with the rule checks (`check --rules`; median, best)', `${ms(median(inPage.rules))}, ${ms(best(inPage.rules))}`);
  row('the file opened as the editor opens it: open (text in JSON) + diagnostics (median, best)', `${ms(median(inPage.text))}, ${ms(best(inPage.text))}`);
  row('the same opened from bytes (no JSON; median, best)', `${ms(median(inPage.bytes))}, ${ms(best(inPage.bytes))}`);
  await context.close();
} finally {
  await browser.close();
  await site.close();
}

const session = await Ctlpgn.load(() => fs.promises.readFile(path.join(dist, 'ctlpgn_web.wasm')));
const inNode = { check: [], open: [] };
const textBytes = new TextEncoder().encode(text);
for (let run = 0; run < runs; run += 1) {
  let started = performance.now();
  session.check(textBytes);
  inNode.check.push(performance.now() - started);
  started = performance.now();
  const document = session.open(text);
  document.call('diagnostics');
  inNode.open.push(performance.now() - started);
  document.close();
}
row('in Node (V8, no page): `check` / opened as the editor does (best)', `${ms(best(inNode.check))} / ${ms(best(inNode.open))}`);

if (fs.existsSync(native)) {
  const timed = (prefix, extra = []) => {
    const times = [];
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      const ran = spawnSync(prefix[0], [...prefix.slice(1), native, 'check', '--format', 'json', ...extra, file], { stdio: ['ignore', 'ignore', 'inherit'] });
      times.push(performance.now() - started);
      if (ran.status !== 0) {
        throw new Error(`${native} check failed: ${ran.status}`);
      }
    }
    return times;
  };
  const oneCore = timed(['taskset', '-c', '1']);
  const twoCores = timed(['env']);
  row('native `ctlpgn check --format json`, one core / two (process wall time, best)', `${ms(best(oneCore))} / ${ms(best(twoCores))}`);
  const rulesOneCore = timed(['taskset', '-c', '1'], ['--rules']);
  row('native `ctlpgn check --rules --format json`, one core (best)', ms(best(rulesOneCore)));
  const ratio = (wasm, of) => `${(best(wasm) / best(of)).toFixed(2)}×`;
  row('`check` in wasm (Chromium, best) ÷ native one core: check / check --rules', `${ratio(inPage.check, oneCore)} / ${ratio(inPage.rules, rulesOneCore)}`, '≤ 2×');
  // A document judges the rule checks and keeps every position (the server's way), so
  // `check --rules` is the nearest native figure.
  row('the editor\'s open in wasm (Chromium, from bytes, best) ÷ native `check --rules` one core', ratio(inPage.bytes, rulesOneCore));
} else {
  console.error(`${native} is missing: build it (cargo build --release -p ctlpgn) to compare with native`);
}
fs.rmSync(file);

console.log('| What | Figure | Aim |');
console.log('|---|---|---|');
for (const [what, figure, aim] of rows) {
  console.log(`| ${what} | ${figure} | ${aim} |`);
}

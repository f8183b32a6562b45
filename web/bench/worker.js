// The language server in a browser's worker, measured (a benchmark: it prints, it never fails
// on a time): js/lsp-worker.js started in a real Worker of Debian's Chromium with the module
// web/build.sh made, as VS Code for the Web and the playground start it, then the 2 MB
// benchmark file (test-support's corpus_file(2000)) opened, edited a character at a time and
// hovered, each timed in the page from the message posted to the answer received.
//
// Environment: CHROMIUM (default /usr/bin/chromium), CTLPGN_BENCH_RUNS (starts, default 7),
// CTLPGN_BENCH_KEYS (edits, default 40), CTLPGN_BENCH_HOVERS (default 200).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { serve } from '../test/serve.js';
import { best, corpusFile, median, ms, p95 } from './figures.js';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.CTLPGN_BENCH_RUNS || 7);
const keys = Number(process.env.CTLPGN_BENCH_KEYS || 40);
const hovers = Number(process.env.CTLPGN_BENCH_HOVERS || 200);

const site = await serve(path.join(web, 'dist'), {
  '/lsp-worker.js': fs.readFileSync(path.join(web, 'js', 'lsp-worker.js')),
  '/bench.ctl-pgn': corpusFile(2000),
  '/worker.html': '<!doctype html><title>worker benchmark</title>',
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
const page = await browser.newPage();
await page.goto(site.url + 'worker.html');

/** Runs in the page: a client of the worker that times each exchange. */
const measured = await page.evaluate(async ({ runs, keys, hovers }) => {
  const text = await (await fetch('bench.ctl-pgn')).text();
  const wasm = await (await fetch('ctlpgn_web.wasm')).arrayBuffer();
  const uri = 'file:///bench.ctl-pgn';
  /** A started worker and a way to wait for the first message a test accepts. */
  function client() {
    const worker = new Worker('lsp-worker.js');
    const waiting = [];
    worker.onmessage = ({ data }) => {
      const at = waiting.findIndex((waiter) => waiter.wanted(data));
      if (at >= 0) {
        waiting.splice(at, 1)[0].resolve(data);
      }
    };
    const next = (wanted) => new Promise((resolve) => waiting.push({ wanted, resolve }));
    return { worker, next };
  }
  const published = (version) => (message) => message.method === 'textDocument/publishDiagnostics' && message.params.version === version;
  const starts = [];
  let session;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const { worker, next } = client();
    worker.postMessage({ ctlpgn: 'start', wasm: wasm.slice(0) });
    await next((message) => message.ctlpgn !== undefined);
    worker.postMessage({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {} } });
    await next((message) => message.id === 1);
    worker.postMessage({ jsonrpc: '2.0', method: 'initialized', params: {} });
    worker.postMessage({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'ctlpgn', version: 1, text } } });
    await next(published(1));
    starts.push(performance.now() - started);
    if (session) {
      session.worker.terminate();
    }
    session = { worker, next };
  }
  // Edits in the middle of the file: a space put after a half-move and taken away again.
  const lines = text.split('\n');
  const moveLines = lines.map((line, index) => [line, index]).filter(([line]) => /^\d+\. /.test(line));
  const edits = [];
  let version = 1;
  for (let key = 0; key < keys; key += 1) {
    const [line, index] = moveLines[Math.floor(moveLines.length / 2) + (key >> 1)];
    const character = line.length;
    const range = key % 2 === 0
      ? { start: { line: index, character }, end: { line: index, character } }
      : { start: { line: index, character }, end: { line: index, character: character + 1 } };
    version += 1;
    const started = performance.now();
    session.worker.postMessage({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version }, contentChanges: [{ range, text: key % 2 === 0 ? ' ' : '' }] } });
    await session.next(published(version));
    edits.push(performance.now() - started);
  }
  // Hovers on half-moves all over the file (a seeded walk, the same every run).
  const hovered = [];
  let seed = 7;
  for (let id = 100; id < 100 + hovers; id += 1) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const [, index] = moveLines[seed % moveLines.length];
    const started = performance.now();
    session.worker.postMessage({ jsonrpc: '2.0', id, method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: index, character: 4 } } });
    await session.next((message) => message.id === id);
    hovered.push(performance.now() - started);
  }
  session.worker.terminate();
  return { starts, edits, hovered };
}, { runs, keys, hovers });

await browser.close();
await site.close();

const rows = [
  ['worker started, initialized and the 2 MB file opened until its diagnostics (median, best)', `${ms(median(measured.starts))}, ${ms(best(measured.starts))}`, 'activation → first diagnostics ≤ 1 s'],
  [`a one-character edit → its diagnostics published (${keys} edits: median / p95)`, `${ms(median(measured.edits))} / ${ms(p95(measured.edits))}`, 'p95 ≤ 5 ms'],
  [`hover on a half-move (${hovers}: median / p95)`, `${ms(median(measured.hovered))} / ${ms(p95(measured.hovered))}`, 'p95 ≤ 5 ms'],
];
console.log('| What | Figure | Aim |\n|---|---|---|');
for (const [what, figure, aim] of rows) {
  console.log(`| ${what} | ${figure} | ${aim} |`);
}

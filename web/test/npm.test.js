// The npm package ctlpgn-viewer as a club installs it: built (scripts/npm-package.js, from the
// module build.sh made), packed by `npm pack`, installed from the tarball alone (offline: it
// has no dependency) into a tiny app that imports it, the app bundled by esbuild as the
// package's README says, served on 127.0.0.1 and loaded in Debian's Chromium by Playwright.
// The viewer renders the game with the module the bundle emitted (and, imported alone or
// unbundled, with the module beside the script); its public API (ply-change,
// goTo, flip, theme) behaves as documented; the dark theme is dark and every text of either
// theme has a contrast of at least 4.5:1 (WCAG's formula, on the computed colours). The
// screenshots of both themes go where e2e.test.js puts its own (docs/images with
// CTLPGN_DOCS_SHOTS). The package's sizes are printed.
//
// Environment: CHROMIUM (default /usr/bin/chromium), CTLPGN_BIN (default target/debug/ctlpgn).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';
import zlib from 'node:zlib';

import { build } from 'esbuild';
import { chromium } from 'playwright-core';

import { buildPackage } from '../scripts/npm-package.js';
import { serve } from './serve.js';
import { dist, pdtl, repository } from './native.js';

// How long one step may wait for the page: a guard, never a pause.
const PATIENCE = 30_000;
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctlpgn-npm-'));
const docsShots = process.env.CTLPGN_DOCS_SHOTS
  ? (fs.existsSync(process.env.CTLPGN_DOCS_SHOTS) && fs.statSync(process.env.CTLPGN_DOCS_SHOTS).isDirectory()
    ? path.resolve(process.env.CTLPGN_DOCS_SHOTS) : path.join(repository, 'docs', 'images'))
  : null;
const OPENING = path.join(repository, 'examples', 'opening.ctl-pgn');
const FILES = ['LICENSE', 'README.md', 'THIRD-PARTY-LICENSES.txt', 'ctlpgn-viewer.js', 'ctlpgn_web.wasm', 'index.d.ts', 'package.json'];

// The app a club writes: the package imported, the module's address given as the README tells
// esbuild's users (its `file` loader copies the file into the bundle's output).
const APP = `import { CtlpgnViewer } from 'ctlpgn-viewer';
import wasm from 'ctlpgn-viewer/ctlpgn_web.wasm';
CtlpgnViewer.wasm = new URL(wasm, import.meta.url);
`;
const PAGE = (script) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Club</title><link rel="icon" href="data:,">
<script type="module" src="${script}"></script></head>
<body><ctlpgn-viewer id="game" src="game.ctl-pgn"></ctlpgn-viewer></body></html>
`;

let packed;
let app;
let site;
let browser;
let page;
/** Every URL the page asked for, and the module's address esbuild wrote. */
const requested = [];
let wasmOutput;

/** Runs npm with `args` in `cwd`; its output. */
function npm(cwd, ...args) {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
}

/** Waits until `condition(arg)`, run in the page, holds; its value. */
async function until(condition, arg) {
  return (await page.waitForFunction(condition, arg, { timeout: PATIENCE })).jsonValue();
}

/** How many boards the viewer has drawn (its board view's data-shown): a test waits for the next. */
async function shownCount() {
  return page.evaluate(() => Number(document.getElementById('game').shadowRoot.querySelector('.ctlpgn-view').dataset.shown));
}

async function screenshot(name) {
  const file = path.join(work, name);
  // No half-move lit by the pointer left over a click.
  await page.mouse.move(0, 0);
  await page.locator('#game').screenshot({ path: file });
  if (docsShots) {
    fs.copyFileSync(file, path.join(docsShots, name));
  }
}

/**
 * The viewer's colours as drawn: its background and text lightness (0 to 255), the fill of a
 * white hex of the board, and the lowest contrast ratio of any text in it with the background
 * it stands on (WCAG 2: relative luminance; disabled buttons are exempt), with that text.
 */
function colours() {
  return page.evaluate(() => {
    const channels = (value) => {
      const numbers = value.match(/[0-9.]+/g).map(Number);
      return numbers.length === 3 ? [...numbers, 1] : numbers;
    };
    const lightness = (value) => channels(value).slice(0, 3).reduce((sum, channel) => sum + channel, 0) / 3;
    const luminance = (rgb) => {
      const [r, g, b] = rgb.slice(0, 3).map((channel) => {
        const c = channel / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    /** The first opaque background from the element up, across the shadow root to the page. */
    const background = (element) => {
      for (let at = element; at; at = at.parentElement || at.getRootNode().host) {
        const colour = channels(getComputedStyle(at).backgroundColor);
        if (colour[3] > 0) {
          return colour;
        }
      }
      return [255, 255, 255, 1];
    };
    const host = document.getElementById('game');
    const style = getComputedStyle(host);
    let lowest = { ratio: Infinity, text: '' };
    for (const element of host.shadowRoot.querySelectorAll('*')) {
      const text = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.data).join('').trim();
      if (!text || element.closest('svg') || element.closest('button:disabled') || element.getClientRects().length === 0) {
        continue;
      }
      const [light, dark] = [luminance(channels(getComputedStyle(element).color)), luminance(background(element))].sort((a, b) => b - a);
      const ratio = (light + 0.05) / (dark + 0.05);
      if (ratio < lowest.ratio) {
        lowest = { ratio, text: `${element.className || element.localName}: ${text.slice(0, 30)}` };
      }
    }
    const hex = host.shadowRoot.querySelector('svg .hex.white');
    return {
      background: lightness(style.backgroundColor),
      text: lightness(style.color),
      hex: hex ? lightness(getComputedStyle(hex).fill) : null,
      lowest,
    };
  });
}

test.before(async () => {
  const folder = await buildPackage(dist);
  const [pack] = JSON.parse(npm(folder, 'pack', '--json', '--pack-destination', work));
  packed = { ...pack, file: path.join(work, pack.filename) };
  app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'club-site', private: true, type: 'module' }));
  // From the tarball only: offline, no audit, no registry.
  npm(app, 'install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', packed.file);
  fs.writeFileSync(path.join(app, 'app.js'), APP);
  const out = path.join(app, 'out');
  const { metafile } = await build({
    entryPoints: [path.join(app, 'app.js')],
    absWorkingDir: app,
    outdir: out,
    bundle: true,
    format: 'esm',
    minify: true,
    loader: { '.wasm': 'file' },
    metafile: true,
    logLevel: 'warning',
  });
  wasmOutput = Object.keys(metafile.outputs).find((output) => output.endsWith('.wasm'));
  assert.ok(wasmOutput, `esbuild emitted the module: ${Object.keys(metafile.outputs).join(', ')}`);
  fs.writeFileSync(path.join(out, 'index.html'), PAGE('app.js'));
  fs.copyFileSync(OPENING, path.join(out, 'game.ctl-pgn'));
  fs.mkdirSync(path.join(out, 'elsewhere'));
  fs.copyFileSync(path.join(out, wasmOutput.split('/').pop()), path.join(out, 'elsewhere', 'ctlpgn_web.wasm'));
  // The package's own module, unbundled, as a page that loads it from node_modules would.
  fs.mkdirSync(path.join(out, 'plain'));
  fs.writeFileSync(path.join(out, 'plain', 'index.html'), PAGE('../modules/ctlpgn-viewer/ctlpgn-viewer.js'));
  fs.copyFileSync(OPENING, path.join(out, 'plain', 'game.ctl-pgn'));
  fs.cpSync(path.join(app, 'node_modules'), path.join(out, 'modules'), { recursive: true });
  // The two-line use, `import 'ctlpgn-viewer'` alone, bundled, with the module copied beside
  // the bundle (the README's other way for esbuild): the address the package computes holds.
  fs.writeFileSync(path.join(app, 'alone.js'), "import 'ctlpgn-viewer';\n");
  await build({ entryPoints: [path.join(app, 'alone.js')], absWorkingDir: app, outdir: path.join(out, 'alone'), bundle: true, format: 'esm', minify: true, logLevel: 'warning' });
  fs.copyFileSync(path.join(app, 'node_modules', 'ctlpgn-viewer', 'ctlpgn_web.wasm'), path.join(out, 'alone', 'ctlpgn_web.wasm'));
  fs.writeFileSync(path.join(out, 'alone', 'index.html'), PAGE('alone.js'));
  fs.copyFileSync(OPENING, path.join(out, 'alone', 'game.ctl-pgn'));

  site = await serve(out);
  browser = await chromium.launch({ executablePath });
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  context.on('request', (request) => requested.push(request.url()));
  page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(site.url + 'index.html');
  await page.waitForSelector('#game[data-ready]', { timeout: PATIENCE });
});

test.after(async () => {
  await browser?.close();
  await site?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test('the tarball holds the module, its declarations, the README and the licences, and nothing else', (t) => {
  assert.deepEqual(packed.files.map((file) => file.path).sort(), FILES);
  const installed = path.join(app, 'node_modules', 'ctlpgn-viewer');
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  const workspace = /\[workspace\.package\][^[]*?\nversion = "([^"]+)"/.exec(fs.readFileSync(path.join(repository, 'Cargo.toml'), 'utf8'))[1];
  assert.equal(manifest.name, 'ctlpgn-viewer');
  assert.equal(manifest.version, workspace);
  assert.equal(manifest.type, 'module');
  assert.equal(manifest.license, 'MIT');
  assert.equal(manifest.sideEffects, true);
  assert.deepEqual(manifest.exports['.'], { types: './index.d.ts', default: './ctlpgn-viewer.js' });
  assert.equal(manifest.exports['./ctlpgn_web.wasm'], './ctlpgn_web.wasm');
  assert.equal(manifest.dependencies, undefined, 'no runtime dependency');
  const module = fs.readFileSync(path.join(installed, 'ctlpgn-viewer.js'));
  assert.ok(module.includes('new URL("./ctlpgn_web.wasm", import.meta.url)'), 'the address bundlers follow');
  // The licences of what the module holds: the crates compiled into it, the tree-sitter runtime among them.
  const notices = fs.readFileSync(path.join(installed, 'THIRD-PARTY-LICENSES.txt'), 'utf8');
  for (const crate of ['tree-sitter', 'serde_json', 'ropey', 'regex']) {
    assert.match(notices, new RegExp(`^${crate} [0-9.]+ \\(`, 'm'), `THIRD-PARTY-LICENSES.txt names ${crate}`);
  }
  const types = fs.readFileSync(path.join(installed, 'index.d.ts'), 'utf8');
  for (const name of ["'ctlpgn-viewer': CtlpgnViewer", "'ply-change': CustomEvent<PlyChangeDetail>", 'goTo(ply: number): void', 'flip(): void']) {
    assert.ok(types.includes(name), `index.d.ts declares ${name}`);
  }
  t.diagnostic(`tarball ${(packed.size / 1024).toFixed(0)} KiB (unpacked ${(packed.unpackedSize / 1024).toFixed(0)} KiB); ` +
    `ctlpgn-viewer.js ${(module.length / 1024).toFixed(1)} KiB, gzipped ${(zlib.gzipSync(module, { level: 9 }).length / 1024).toFixed(1)} KiB; ` +
    `ctlpgn_web.wasm gzipped ${(zlib.gzipSync(fs.readFileSync(path.join(installed, 'ctlpgn_web.wasm')), { level: 9 }).length / 1024).toFixed(0)} KiB`);
});

test('the bundled app shows the game, with the module esbuild put in its output', async () => {
  assert.equal(await page.locator('#game .players').textContent(), 'Puig, Anna – Vidàl, Marc');
  assert.equal(await page.evaluate(() => document.getElementById('game').pdtl), pdtl(OPENING, '--ply', '0'));
  const modules = requested.filter((url) => url.endsWith('.wasm'));
  assert.deepEqual(modules, [site.url + path.basename(wasmOutput)]);
  assert.ok(fs.existsSync(path.join(app, wasmOutput)), 'a file esbuild wrote');
  assert.ok(await page.locator('#game [data-ply]').count() >= 12, 'the moves are listed');
});

test('every member index.d.ts declares on the class is on the element, and no other public one', async () => {
  const types = fs.readFileSync(path.join(app, 'node_modules', 'ctlpgn-viewer', 'index.d.ts'), 'utf8');
  const body = types.slice(types.indexOf('export class CtlpgnViewer'), types.indexOf('declare global'));
  const declared = [...body.matchAll(/^ {2}(static )?(?:readonly )?([a-zA-Z]+)[(<:]/gm)]
    .map(([, isStatic, name]) => (isStatic ? 'static ' : '') + name)
    .filter((name) => !['addEventListener', 'removeEventListener'].includes(name));
  assert.ok(declared.length >= 9, declared.join(', '));
  const missing = await page.evaluate((names) => {
    const viewer = document.getElementById('game');
    const Viewer = customElements.get('ctlpgn-viewer');
    return names.filter((name) => !(name.startsWith('static ') ? name.slice(7) in Viewer : name in viewer));
  }, declared);
  assert.deepEqual(missing, []);
  // The prototype's own public members are the ones declared (go, the inner step, is not API).
  const own = await page.evaluate(() => Object.getOwnPropertyNames(customElements.get('ctlpgn-viewer').prototype)
    .filter((name) => !['constructor', 'connectedCallback', 'disconnectedCallback', 'attributeChangedCallback', 'go'].includes(name)));
  assert.deepEqual(own.sort(), declared.filter((name) => !name.startsWith('static ') && name !== 'flipped').sort());
});

test('ply-change fires on goTo and on a key, with the ply, the half-move and the whole PDTL', async () => {
  // Heard on the document: the event bubbles.
  const detail = await page.evaluate(() => new Promise((resolve) => {
    const viewer = document.getElementById('game');
    document.addEventListener('ply-change', (event) => resolve(event.target === viewer && event.detail), { once: true });
    viewer.goTo(5);
  }));
  assert.deepEqual(detail, { ply: 5, move: 'E13×F16', pdtl: pdtl(OPENING, '--ply', '5') });
  assert.equal(await page.locator('#game [aria-current=step]').textContent(), 'E13×F16');

  await page.evaluate(() => {
    window.changes = [];
    document.getElementById('game').addEventListener('ply-change', (event) => window.changes.push(event.detail));
  });
  await page.locator('#game').focus();
  await page.keyboard.press('ArrowRight');
  const [next] = await until(() => window.changes.length > 0 && window.changes);
  assert.equal(next.ply, 6);
  assert.equal(next.pdtl, pdtl(OPENING, '--ply', '6'));
  assert.equal(next.move, await page.evaluate(() => document.getElementById('game').move));
  // Going where it already is changes nothing, and says nothing.
  await page.evaluate(() => document.getElementById('game').goTo(6));
  assert.equal(await page.evaluate(() => window.changes.length), 1);
});

test('ply-change fires on a click in the list and on a change of the ply attribute; goTo before ready opens there', async () => {
  const next = (act) => page.evaluate((how) => new Promise((resolve) => {
    const viewer = document.getElementById('game');
    viewer.addEventListener('ply-change', (event) => resolve(event.detail.ply), { once: true });
    if (how === 'attribute') {
      viewer.setAttribute('ply', '2');
    }
  }), act);
  const clicked = next('click');
  await page.locator('#game [data-ply="3"]').click();
  assert.equal(await clicked, 3);
  assert.equal(await next('attribute'), 2);

  // A viewer made by the page's script, told where the module is (the wasm attribute), and
  // sent to a half-move before it has read its record.
  const ply = await page.evaluate(() => new Promise((resolve) => {
    const viewer = document.createElement('ctlpgn-viewer');
    viewer.id = 'late';
    viewer.setAttribute('src', 'game.ctl-pgn');
    viewer.setAttribute('wasm', 'elsewhere/ctlpgn_web.wasm');
    viewer.addEventListener('ready', () => resolve(viewer.ply), { once: true });
    document.body.append(viewer);
    viewer.goTo(4);
  }));
  assert.equal(ply, 4);
  assert.equal(await page.evaluate(() => document.getElementById('late').pdtl), pdtl(OPENING, '--ply', '4'));
  assert.ok(requested.includes(site.url + 'elsewhere/ctlpgn_web.wasm'), requested.join(', '));
  await page.evaluate(() => document.getElementById('late').remove());
});

test('flip() turns the board round (data-flipped) and says so in the flip attribute', async () => {
  const svgFlipped = () => page.evaluate(() => document.getElementById('game').shadowRoot.querySelector('svg').dataset.flipped);
  assert.equal(await svgFlipped(), 'false');
  await page.evaluate(() => document.getElementById('game').flip());
  await until(() => document.getElementById('game').shadowRoot.querySelector('svg').dataset.flipped === 'true');
  assert.equal(await page.evaluate(() => document.getElementById('game').hasAttribute('flip')), true);
  assert.equal(await page.evaluate(() => document.getElementById('game').flipped), true);
  await page.evaluate(() => document.getElementById('game').flip());
  await until(() => document.getElementById('game').shadowRoot.querySelector('svg').dataset.flipped === 'false');
});

test('theme="dark" is dark, the board too; both themes keep every text at 4.5:1 or more', async (t) => {
  const light = await colours();
  assert.ok(light.background > 200 && light.text < 60, JSON.stringify(light));
  assert.ok(light.lowest.ratio >= 4.5, `light: ${JSON.stringify(light.lowest)}`);
  await screenshot('viewer-light.png');

  const before = await shownCount();
  await page.evaluate(() => document.getElementById('game').setAttribute('theme', 'dark'));
  await until((count) => Number(document.getElementById('game').shadowRoot.querySelector('.ctlpgn-view').dataset.shown) > count, before);
  const dark = await colours();
  assert.ok(dark.background < 60 && dark.text > 180, JSON.stringify(dark));
  assert.ok(dark.hex < light.hex, `the board's hexes are darker: ${light.hex} → ${dark.hex}`);
  assert.ok(dark.lowest.ratio >= 4.5, `dark: ${JSON.stringify(dark.lowest)}`);
  await screenshot('viewer-dark.png');
  t.diagnostic(`lowest contrast: light ${light.lowest.ratio.toFixed(2)}:1 (${light.lowest.text}), dark ${dark.lowest.ratio.toFixed(2)}:1 (${dark.lowest.text})`);
});

test('theme="auto" follows the system\'s colour scheme', async () => {
  await page.evaluate(() => document.getElementById('game').setAttribute('theme', 'auto'));
  await page.emulateMedia({ colorScheme: 'light' });
  await until(() => getComputedStyle(document.getElementById('game')).backgroundColor === 'rgb(255, 255, 255)');
  const light = await colours();
  await page.emulateMedia({ colorScheme: 'dark' });
  await until(() => getComputedStyle(document.getElementById('game')).backgroundColor !== 'rgb(255, 255, 255)');
  // The board is drawn again in the dark palette when the system changes.
  await until((hex) => {
    const cell = document.getElementById('game').shadowRoot.querySelector('svg .hex.white');
    const fill = getComputedStyle(cell).fill.match(/[0-9.]+/g).slice(0, 3).map(Number);
    return fill.reduce((sum, channel) => sum + channel, 0) / 3 < hex;
  }, light.hex);
  assert.ok((await colours()).background < 60);
  await page.emulateMedia({ colorScheme: 'light' });
});

test('import \'ctlpgn-viewer\' alone, bundled or not, finds the wasm beside the script', async () => {
  for (const [folder, wasm] of [['alone/', 'alone/ctlpgn_web.wasm'], ['plain/', 'modules/ctlpgn-viewer/ctlpgn_web.wasm']]) {
    const other = await browser.newPage();
    const asked = [];
    other.on('request', (request) => asked.push(request.url()));
    other.on('pageerror', (error) => {
      throw error;
    });
    await other.goto(site.url + folder + 'index.html');
    await other.waitForSelector('#game[data-ready]', { timeout: PATIENCE });
    assert.equal(await other.evaluate(() => document.getElementById('game').pdtl), pdtl(OPENING, '--ply', '0'));
    assert.deepEqual(asked.filter((url) => url.endsWith('.wasm')), [site.url + wasm]);
    await other.close();
  }
});

test('no request left the page\'s origin', () => {
  assert.ok(requested.length > 2);
  assert.deepEqual(requested.filter((url) => !url.startsWith(site.url) && !url.startsWith('data:')), []);
});

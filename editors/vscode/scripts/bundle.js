// The extension's bundles, made by esbuild (`npm run compile`; `-- --minify` for the
// package): out/extension.js, the desktop extension host's code with vscode-languageclient
// inside; out/browser.js, the same extension for VS Code for the Web (vscode-languageclient's
// browser client, no Node); out/lsp-worker.js, the web worker that runs the language server
// there (web/js/lsp-worker.js), and out/ctlpgn_web.wasm, the module it runs, copied from
// web/dist (web/build.sh builds it); and out/webview/board.js, the board panel's page:
// webview/board.js with the board front-end the web playground draws with (web/js), so that
// both hosts run one copy of it.
//
// A build for the package (`--minify`) fails without the module; a development build warns
// and leaves the browser's entry without it.

'use strict';

const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const repository = path.resolve(root, '..', '..');
const minify = process.argv.includes('--minify');
const common = { bundle: true, sourcemap: true, minify, logLevel: 'warning' };
// The Chromium of VS Code 1.82's Electron, the oldest VS Code the manifest accepts; the
// browsers of VS Code for the Web are newer.
const chrome = 'chrome114';

/** Copies the WebAssembly module into out/, or says why it cannot. */
function copyModule() {
  const built = path.join(repository, 'web', 'dist', 'ctlpgn_web.wasm');
  const copied = path.join(root, 'out', 'ctlpgn_web.wasm');
  if (!fs.existsSync(built)) {
    const message = `${path.relative(repository, built)} is missing: run web/build.sh first (the browser's entry runs that module)`;
    if (minify) {
      throw new Error(message);
    }
    console.warn(`bundle.js: ${message}; out/browser.js is built without it`);
    fs.rmSync(copied, { force: true });
    return;
  }
  fs.mkdirSync(path.dirname(copied), { recursive: true });
  fs.copyFileSync(built, copied);
}

Promise.all([
  esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'src', 'extension.ts')],
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    external: ['vscode'],
    outfile: path.join(root, 'out', 'extension.js'),
  }),
  // VS Code loads a web extension's `browser` script as CommonJS in its web worker.
  esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'src', 'browser.ts')],
    platform: 'browser',
    format: 'cjs',
    target: chrome,
    external: ['vscode'],
    outfile: path.join(root, 'out', 'browser.js'),
  }),
  esbuild.build({
    ...common,
    entryPoints: [path.join(repository, 'web', 'js', 'lsp-worker.js')],
    platform: 'browser',
    format: 'iife',
    target: chrome,
    outfile: path.join(root, 'out', 'lsp-worker.js'),
  }),
  esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'webview', 'board.js')],
    platform: 'browser',
    format: 'iife',
    target: chrome,
    outfile: path.join(root, 'out', 'webview', 'board.js'),
  }),
  Promise.resolve().then(copyModule),
]).catch((error) => {
  if (!(error && error.errors)) console.error(`bundle.js: ${error && error.message ? error.message : error}`);
  process.exit(1);
});

// The extension's two bundles, made by esbuild (`npm run compile`; `-- --minify` for the
// package): out/extension.js, the extension host's code with vscode-languageclient inside, and
// out/webview/board.js, the board panel's page: webview/board.js with the board front-end the
// web playground draws with (web/js), so that both hosts run one copy of it.

'use strict';

const esbuild = require('esbuild');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const minify = process.argv.includes('--minify');
const common = { bundle: true, sourcemap: true, minify, logLevel: 'warning' };

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
  esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'webview', 'board.js')],
    platform: 'browser',
    format: 'iife',
    // The Chromium of VS Code 1.82's Electron, the oldest VS Code the manifest accepts.
    target: 'chrome114',
    outfile: path.join(root, 'out', 'webview', 'board.js'),
  }),
]).catch(() => process.exit(1));

// The site's JavaScript and static files into dist/ (build.sh has put the module there):
// the playground as one classic script (so that index.html works opened from a folder, where
// a browser refuses modules), the viewer as one ES module, and the module again in base64 for
// the playground opened from a folder, which may not fetch; then the viewer as the npm package
// `ctlpgn-viewer` in dist/npm (npm-package.js).

import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildPackage, licenceNotices } from './npm-package.js';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const wasm = path.join(dist, 'ctlpgn_web.wasm');
if (!fs.existsSync(wasm)) {
  throw new Error(`${wasm} is missing: run web/build.sh, which builds it first`);
}

const common = {
  bundle: true,
  minify: true,
  sourcemap: false,
  target: ['chrome111', 'firefox113', 'safari16.4'],
  legalComments: 'none',
  metafile: true,
  loader: { '.ctl-pgn': 'text' },
  logLevel: 'warning',
};

const built = [
  await build({ ...common, entryPoints: [path.join(web, 'playground', 'main.js')], outfile: path.join(dist, 'playground.js'), format: 'iife' }),
  await build({ ...common, entryPoints: [path.join(web, 'viewer', 'viewer.js')], outfile: path.join(dist, 'ctlpgn-viewer.js'), format: 'esm' }),
];

// The licences of the npm packages bundled (CodeMirror and its parts, all MIT) and of the
// Rust crates in the module, which their copies must carry.
fs.writeFileSync(path.join(dist, 'THIRD-PARTY-LICENSES.txt'), licenceNotices(built.map(({ metafile }) => metafile), 'playground.js and ctlpgn-viewer.js'));

for (const [from, to] of [
  ['playground/index.html', 'index.html'],
  ['playground/playground.css', 'playground.css'],
  ['viewer/demo.html', 'viewer.html'],
  ['../examples/opening.ctl-pgn', 'opening.ctl-pgn'],
]) {
  fs.copyFileSync(path.join(web, from), path.join(dist, to));
}
const base64 = fs.readFileSync(wasm).toString('base64');
fs.writeFileSync(path.join(dist, 'ctlpgn_web.wasm.js'), `// The CTL-PGN module in base64, for the playground opened from a folder.\nglobalThis.ctlpgnWasm = "${base64}";\n`);
await buildPackage(dist);
console.log(`bundled into ${path.relative(process.cwd(), dist) || '.'}`);

// The npm package `ctlpgn-viewer` into dist/npm/ (bundle.js calls it; `node
// scripts/npm-package.js` alone rebuilds it from the module build.sh made): the element as one
// ES module, the WebAssembly module beside it (which the element finds by
// `new URL('./ctlpgn_web.wasm', import.meta.url)`, the address bundlers follow), its
// TypeScript declarations and README (web/npm/), the licence, the licences of any npm package
// bundled into it and of the Rust crates compiled into the WebAssembly module, and a
// package.json whose version is the workspace's.

import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repository = path.resolve(web, '..');

/**
 * The third-party licences of a build: those of the npm packages esbuild read into the outputs
 * of `metafiles` (named `bundles` in the heading), then those of the Rust crates in the
 * WebAssembly module beside them, as one text.
 */
export function licenceNotices(metafiles, bundles) {
  const packages = new Set();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const found = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (found) {
        packages.add(found[1]);
      }
    }
  }
  const notices = [...packages].sort().map((name) => {
    const folder = path.join(web, 'node_modules', name);
    const { version, license } = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const file = fs.readdirSync(folder).find((entry) => /^licen[sc]e/i.test(entry));
    const text = file ? fs.readFileSync(path.join(folder, file), 'utf8').trim() : `${license} (no licence file in the package)`;
    return `${name} ${version} (${license})\n\n${text}\n`;
  });
  const rule = '\n' + '-'.repeat(72) + '\n\n';
  const body = notices.length > 0 ? notices.join(rule) : 'None: it is the project\'s own code alone.\n';
  return `The npm packages bundled into ${bundles}, and their licences.\n\n${body}\n${'='.repeat(72)}\n\n` +
    `The Rust crates compiled into ctlpgn_web.wasm, and their licences.\n\n${crateNotices().join(rule)}`;
}

/** The crates' notices, read once for the site and the package. */
let crates = null;

/**
 * The licences of the Rust crates compiled into the WebAssembly module, which its copies must
 * carry as the bundled npm packages' are: the normal dependencies of ctlpgn-web for wasm32
 * (`cargo tree`, which resolves features for that package alone; proc-macros included, since
 * their output is in the module), outside the workspace, each with its licence files, from
 * the sources cargo fetched (`cargo metadata`). Of a crate offered under MIT or another licence,
 * the MIT text is taken.
 */
function crateNotices() {
  if (crates !== null) {
    return crates;
  }
  const cargo = (...args) => execFileSync('cargo', args, { cwd: repository, encoding: 'utf8', maxBuffer: 64 << 20 });
  const tree = cargo('tree', '--locked', '--offline', '-p', 'ctlpgn-web', '--target', 'wasm32-unknown-unknown', '-e', 'normal', '--prefix', 'none', '-f', '{p}');
  const wanted = new Set(tree.split('\n').map((line) => /^(\S+) v(\S+)/.exec(line)).filter(Boolean).map(([, name, version]) => `${name} ${version}`));
  const { packages } = JSON.parse(cargo('metadata', '--locked', '--offline', '--format-version', '1', '--filter-platform', 'wasm32-unknown-unknown'));
  const found = packages.filter((crate) => crate.source !== null && wanted.has(`${crate.name} ${crate.version}`))
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
  crates = found.map((crate) => {
    const folder = path.dirname(crate.manifest_path);
    const files = fs.readdirSync(folder).filter((entry) => /^(licen[cs]e|copying|notice|unlicense)/i.test(entry)).sort();
    const mit = /\bMIT\b/.test(crate.license || '') ? files.filter((file) => /mit|unicode|notice/i.test(file)) : [];
    const chosen = mit.length > 0 ? mit : files;
    const texts = chosen.map((file) => fs.readFileSync(path.join(folder, file), 'utf8').trim());
    const body = texts.length > 0 ? texts.join('\n\n') : `${crate.license} (no licence file in the crate)`;
    return `${crate.name} ${crate.version} (${crate.license})\n\n${body}\n`;
  });
  return crates;
}

/** The workspace's version (Cargo.toml's [workspace.package]), which every part of the project shares. */
function workspaceVersion() {
  const manifest = fs.readFileSync(path.join(repository, 'Cargo.toml'), 'utf8');
  const section = manifest.split(/^\[workspace\.package\]$/m)[1] || '';
  const found = /^version\s*=\s*"([^"]+)"/m.exec(section.split(/^\[/m)[0]);
  if (!found) {
    throw new Error('Cargo.toml has no [workspace.package] version');
  }
  return found[1];
}

/** Builds the package into `dist`/npm from `dist`/ctlpgn_web.wasm; answers its folder. */
export async function buildPackage(dist = path.join(web, 'dist')) {
  const wasm = path.join(dist, 'ctlpgn_web.wasm');
  if (!fs.existsSync(wasm)) {
    throw new Error(`${wasm} is missing: run web/build.sh, which builds it first`);
  }
  const out = path.join(dist, 'npm');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  // Not minified: the app that installs it bundles and minifies it, and a reader of
  // node_modules (or of a stack trace) sees the code.
  const { metafile } = await build({
    entryPoints: [path.join(web, 'viewer', 'viewer.js')],
    outfile: path.join(out, 'ctlpgn-viewer.js'),
    bundle: true,
    format: 'esm',
    minify: false,
    target: ['chrome111', 'firefox113', 'safari16.4'],
    legalComments: 'inline',
    metafile: true,
    logLevel: 'warning',
    banner: { js: `// ctlpgn-viewer ${workspaceVersion()}: the <ctlpgn-viewer> element (MIT; README.md).` },
  });
  fs.copyFileSync(wasm, path.join(out, 'ctlpgn_web.wasm'));
  fs.copyFileSync(path.join(web, 'npm', 'index.d.ts'), path.join(out, 'index.d.ts'));
  fs.copyFileSync(path.join(web, 'npm', 'README.md'), path.join(out, 'README.md'));
  fs.copyFileSync(path.join(repository, 'LICENSE'), path.join(out, 'LICENSE'));
  fs.writeFileSync(path.join(out, 'THIRD-PARTY-LICENSES.txt'), licenceNotices([metafile], 'ctlpgn-viewer.js'));
  const files = ['ctlpgn-viewer.js', 'ctlpgn_web.wasm', 'index.d.ts', 'README.md', 'LICENSE', 'THIRD-PARTY-LICENSES.txt'];
  const manifest = {
    name: 'ctlpgn-viewer',
    version: workspaceVersion(),
    description: 'The <ctlpgn-viewer> element: a CTL-PGN game record (the hexagonal chess variant C\'escacs) on any web page, with its board, moves, variations and comments, checked by the ctlpgn core in WebAssembly.',
    keywords: ['ctlpgn', 'ctl-pgn', 'cescacs', 'chess', 'hexagonal-chess', 'pgn', 'viewer', 'web-component', 'custom-element', 'webassembly'],
    license: 'MIT',
    homepage: 'https://github.com/ctlpgn/ctlpgn/blob/main/docs/web.md',
    repository: { type: 'git', url: 'git+https://github.com/ctlpgn/ctlpgn.git', directory: 'web' },
    bugs: 'https://github.com/ctlpgn/ctlpgn/issues',
    type: 'module',
    main: './ctlpgn-viewer.js',
    module: './ctlpgn-viewer.js',
    types: './index.d.ts',
    exports: {
      '.': { types: './index.d.ts', default: './ctlpgn-viewer.js' },
      './ctlpgn_web.wasm': './ctlpgn_web.wasm',
      './package.json': './package.json',
    },
    files,
    // Importing the module registers the element: a bundler must not drop the import.
    sideEffects: true,
  };
  fs.writeFileSync(path.join(out, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  for (const file of files) {
    if (!fs.existsSync(path.join(out, file))) {
      throw new Error(`the package lacks ${file}`);
    }
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const out = await buildPackage();
  console.log(`the npm package in ${path.relative(process.cwd(), out) || '.'}`);
}

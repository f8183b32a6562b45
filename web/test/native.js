// The native ctlpgn binary the web's answers are compared with: CTLPGN_BIN, else the debug
// build (`cargo build -p ctlpgn`).

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repository = path.resolve(web, '..');
export const dist = path.join(web, 'dist');
export const binary = path.resolve(process.env.CTLPGN_BIN || path.join(repository, 'target', 'debug', 'ctlpgn'));

if (!fs.existsSync(binary)) {
  throw new Error(`${binary} is missing: build it with \`cargo build -p ctlpgn\` (or set CTLPGN_BIN)`);
}
if (!fs.existsSync(path.join(dist, 'ctlpgn_web.wasm'))) {
  throw new Error(`${dist} is not built: run web/build.sh`);
}

/** `ctlpgn check --format json FILE ...arguments`: its diagnostics. */
export function check(file, ...args) {
  const run = spawnSync(binary, ['check', '--format', 'json', ...args, file], { encoding: 'utf8' });
  if (run.status === 2) {
    throw new Error(run.stderr);
  }
  return JSON.parse(run.stdout);
}

/** The exit status of `ctlpgn check FILE`, and what it printed. */
export function checkStatus(file) {
  const run = spawnSync(binary, ['check', file], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

/** `ctlpgn pdtl FILE ...arguments`: the PDTL printed. */
export function pdtl(file, ...args) {
  return execFileSync(binary, ['pdtl', file, ...args], { encoding: 'utf8' }).trim();
}

/** The files of a testdata folder (or examples/) with a name ending `.ctl-pgn`, sorted. */
export function records(folder) {
  const directory = path.join(repository, folder);
  return fs.readdirSync(directory).filter((name) => name.endsWith('.ctl-pgn')).sort().map((name) => path.join(directory, name));
}

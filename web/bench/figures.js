// What the web's benchmarks share: the 2 MB benchmark file as test-support's corpus_file makes
// it, and the figures (median, p95, best) printed one way.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** test-support's corpus_file(records): the corpus's valid games, sorted by name, repeated, each followed by a newline. */
export function corpusFile(records) {
  const folder = path.join(repository, 'testdata', 'corpus', 'valid');
  const games = fs.readdirSync(folder).filter((name) => name.endsWith('.ctl-pgn')).sort().map((name) => fs.readFileSync(path.join(folder, name), 'utf8'));
  let file = '';
  for (let index = 0; index < records; index += 1) {
    file += games[index % games.length] + '\n';
  }
  return file;
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const p95 = (values) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)];
export const best = (values) => Math.min(...values);
export const ms = (value) => `${value.toFixed(1)} ms`;
export const kb = (bytes) => `${(bytes / 1000).toFixed(0)} KB`;

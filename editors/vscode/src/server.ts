// Where the `ctlpgn` binary comes from: the candidates in the order the extension tries them,
// each checked by running `ctlpgn --version`. Knows nothing of the `vscode` module, so that the
// tests run it as it is.

import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** A binary the extension may start, and where it was found. */
export interface Candidate {
  source: 'ctlpgn.server.path' | 'bundled' | 'PATH' | 'cargo';
  path: string;
}

/** A candidate that does not work, with why. */
export interface Rejected {
  candidate: Candidate;
  reason: string;
}

export interface Found {
  /** The first candidate that answered `--version`, with the version it gave. */
  server?: Candidate & { version: string };
  /** Every candidate tried before it (or all of them), with the reason each was passed over. */
  rejected: Rejected[];
}

const binaryName = process.platform === 'win32' ? 'ctlpgn.exe' : 'ctlpgn';

/**
 * The candidates, in order: the setting, the binary the extension carries (the `.vsix` for a
 * platform has it in `server/`), `ctlpgn` in each `PATH` folder, and cargo's folder of installed
 * binaries (an editor started from a desktop, or VS Code's extension host, often lacks it on PATH).
 */
export function candidates(configured: string, extensionPath: string, env: NodeJS.ProcessEnv = process.env): Candidate[] {
  const list: Candidate[] = [];
  const setting = configured.trim();
  if (setting !== '') {
    list.push({ source: 'ctlpgn.server.path', path: setting.startsWith('~') ? path.join(os.homedir(), setting.slice(1)) : setting });
  }
  list.push({ source: 'bundled', path: path.join(extensionPath, 'server', binaryName) });
  for (const folder of (env.PATH ?? '').split(path.delimiter).filter((entry) => entry !== '')) {
    list.push({ source: 'PATH', path: path.join(folder, binaryName) });
  }
  list.push({ source: 'cargo', path: path.join(env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'), 'bin', binaryName) });
  // A folder named twice (PATH and cargo's) is tried once.
  return list.filter((candidate, index) => list.findIndex((other) => other.path === candidate.path) === index);
}

/** The version `ctlpgn --version` prints (`ctlpgn 0.1.0`), or why the binary does not work. */
export async function probe(binary: string): Promise<{ version: string } | { reason: string }> {
  try {
    if (!fs.statSync(binary).isFile()) {
      return { reason: 'not a file' };
    }
  } catch {
    return { reason: 'no such file' };
  }
  try {
    // Asynchronously: the extension host runs every extension on one thread, and a binary that
    // takes its time to answer (a network folder, a slow antivirus) must not hold them up.
    const printed = await new Promise<string>((resolve, reject) => {
      const child = execFile(binary, ['--version'], { timeout: 5000, encoding: 'utf8' }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
      child.stdin?.end();
    });
    const match = /^ctlpgn (\S+)/.exec(printed.trim());
    return match ? { version: match[1] } : { reason: `\`--version\` printed "${printed.trim().slice(0, 60)}", not "ctlpgn VERSION"` };
  } catch (error) {
    return { reason: `\`--version\` failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
}

/** The first working candidate, and the ones passed over. Stops at the first that works. */
export async function findServer(options: { configured: string; extensionPath: string; env?: NodeJS.ProcessEnv }): Promise<Found> {
  const rejected: Rejected[] = [];
  for (const candidate of candidates(options.configured, options.extensionPath, options.env)) {
    const result = await probe(candidate.path);
    if ('version' in result) {
      return { server: { ...candidate, version: result.version }, rejected };
    }
    rejected.push({ candidate, reason: result.reason });
  }
  return { rejected };
}

/**
 * The candidates passed over, for a notification: each by where it came from, its path and why,
 * except that the PATH folders that simply hold no `ctlpgn` (the usual case) make one entry.
 */
export function describeRejected(rejected: Rejected[]): string {
  const missingOnPath = rejected.filter(({ candidate, reason }) => candidate.source === 'PATH' && reason === 'no such file');
  const parts = rejected
    .filter((entry) => !missingOnPath.includes(entry))
    .map(({ candidate, reason }) => `${candidate.source} ${candidate.path} (${reason})`);
  if (missingOnPath.length > 0) {
    parts.push(`PATH (${missingOnPath.length} folders, none holds ${binaryName})`);
  }
  return parts.join('; ');
}

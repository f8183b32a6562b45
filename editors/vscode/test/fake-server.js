// A language server that only listens: it writes every message it receives to the file
// named by CTLPGN_FAKE_LOG (one JSON message a line), answers `initialize` with the few
// capabilities the extension relies on, answers `ctlpgn.positionAt` with CTLPGN_FAKE_PDTL,
// `ctlpgn/board` with a board whose `moves` include E21-E19 (and whose line is a window of a
// line of 300 half-moves), and `ctlpgn/play` with an edit that writes it (a refusal for any
// other move, and for a version other than the board's); `--version` prints CTLPGN_FAKE_VERSION (default: the extension's version).
// The extension's tests start it in place of `ctlpgn lsp` to see what the extension sends.

'use strict';

const fs = require('fs');

// `ctlpgn --version`, which the extension runs to check a candidate binary.
if (process.argv.includes('--version')) {
  process.stdout.write(`ctlpgn ${process.env.CTLPGN_FAKE_VERSION ?? require('../package.json').version}\n`);
  process.exit(0);
}

const log = process.env.CTLPGN_FAKE_LOG;
let buffered = Buffer.alloc(0);

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

/** The version of the document the server holds: the one the test gives the document. */
function documentVersion() {
  return Number(process.env.CTLPGN_FAKE_DOCUMENT_VERSION ?? 1);
}

function answer(message) {
  switch (message.method) {
    case 'initialize':
      return {
        capabilities: { textDocumentSync: 2, executeCommandProvider: { commands: ['ctlpgn.positionAt'] } },
        serverInfo: { name: 'fake ctlpgn' },
      };
    case 'ctlpgn/board':
      // Two half-moves on line 3, the cursor on the first, of a line of 300 whose last is on line 152.
      return {
        version: documentVersion(),
        svg: '<svg xmlns="http://www.w3.org/2000/svg"><style>.a{}</style></svg>',
        pdtl: 'PDTL after 1. K4-K6',
        exact: true,
        ply: 1,
        side: 'black',
        move: '1. K4-K6',
        line: [
          { ply: 1, label: '1. K4-K6', played: true, range: { start: { line: 2, character: 3 }, end: { line: 2, character: 8 } } },
          { ply: 2, label: '1. …, E21-E19', played: true, range: { start: { line: 2, character: 10 }, end: { line: 2, character: 17 } } },
        ],
        lineStart: 1,
        lineLength: 300,
        lineFirst: { ply: 1, label: '1. K4-K6', played: true, range: { start: { line: 2, character: 3 }, end: { line: 2, character: 8 } } },
        lineLast: { ply: 300, label: '150. …, E19-E17', played: true, range: { start: { line: 151, character: 11 }, end: { line: 151, character: 18 } } },
        moves: [{ from: 'E21', to: 'E19', text: 'E21-E19' }],
      };
    case 'ctlpgn/play':
      if (message.params.textDocument.version !== documentVersion()) {
        return { error: { code: -32801, message: 'the document changed since the position was read' } };
      }
      if (message.params.move !== 'E21-E19') {
        return { error: { code: -32602, message: `\`${message.params.move}\` is not a half-move Black may play here` } };
      }
      // `1. K4-K6:` becomes `1. K4-K6, E21-E19:`, the version the one the test gives the document.
      return {
        edit: {
          documentChanges: [
            {
              textDocument: { uri: message.params.textDocument.uri, version: documentVersion() },
              edits: [{ range: { start: { line: 2, character: 8 }, end: { line: 2, character: 9 } }, newText: ', E21-E19:' }],
            },
          ],
        },
        range: { start: { line: 2, character: 10 }, end: { line: 2, character: 17 } },
      };
    case 'workspace/executeCommand':
      return process.env.CTLPGN_FAKE_PDTL ?? null;
    default:
      return null;
  }
}

process.stdin.on('data', (chunk) => {
  buffered = Buffer.concat([buffered, chunk]);
  for (;;) {
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffered.subarray(0, end).toString('ascii'))[1]);
    if (buffered.length < end + 4 + length) return;
    const message = JSON.parse(buffered.subarray(end + 4, end + 4 + length).toString('utf8'));
    buffered = buffered.subarray(end + 4 + length);
    if (log) fs.appendFileSync(log, JSON.stringify(message) + '\n');
    if (message.method === 'exit') process.exit(0);
    if (message.id !== undefined && message.method !== undefined) {
      const result = answer(message);
      send(result && result.error ? { id: message.id, error: result.error } : { id: message.id, result });
    }
  }
});

// A static server of web/dist on 127.0.0.1 (port 0: the system picks one), for the tests and
// the benchmark: the page as any static host would serve it, the module with its wasm type.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.ctl-pgn': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serves `folder` (and `extra`: URL path → file contents) until `close()`; resolves to `{url, close, requests}`. */
export function serve(folder, extra = {}) {
  const requests = [];
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    requests.push(pathname);
    const file = path.join(folder, pathname.endsWith('/') ? pathname + 'index.html' : pathname);
    let body = extra[pathname];
    if (body === undefined) {
      if (!file.startsWith(folder) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        response.writeHead(404).end('not found');
        return;
      }
      body = fs.readFileSync(file);
    }
    response.writeHead(200, { 'content-type': TYPES[path.extname(pathname)] || 'application/octet-stream', 'cache-control': 'no-store' });
    response.end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, requests, close: () => new Promise((done) => server.close(done)) });
    });
  });
}

// A static file server for the tests: serves folders under URL prefixes on 127.0.0.1 at an
// ephemeral port (GET and HEAD, as static hosts answer), with the MIME types the site needs
// (application/wasm for streaming compilation).

import { createServer } from 'node:http';
import { once } from 'node:events';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Starts serving `mounts` ({ '/': siteDir, '/fixtures/': dir, ... }, longest prefix wins) and
 * resolves once the server listens. Returns { url, requests, close }; `requests` lists the paths
 * asked for, with their status.
 */
export async function serve(mounts) {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const requests = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://localhost');
    const pathname = decodeURIComponent(url.pathname);
    const prefix = prefixes.find((p) => pathname.startsWith(p));
    let status = 404;
    let body = `not found: ${pathname}\n`;
    let type = 'text/plain; charset=utf-8';
    if (prefix !== undefined && ['GET', 'HEAD'].includes(request.method)) {
      const root = path.resolve(mounts[prefix]);
      let file = path.resolve(root, '.' + path.posix.sep + pathname.slice(prefix.length));
      if (file === root || file.startsWith(root + path.sep)) {
        try {
          if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
          body = await readFile(file);
          status = 200;
          type = TYPES[path.extname(file)] ?? 'application/octet-stream';
        } catch {
          // 404
        }
      }
    }
    requests.push({ method: request.method, path: pathname, status });
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

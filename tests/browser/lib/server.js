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
 * resolves once the server listens; the paths `throttle` accepts are sent slowly. Returns { url, requests, close }; `requests` lists the paths
 * asked for, with their status and the bytes sent.
 */
export async function serve(mounts, { throttle = () => false } = {}) {
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
    requests.push({ method: request.method, path: pathname, status, bytes: status === 200 ? Buffer.byteLength(body) : 0 });
    const headers = { 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) };
    response.writeHead(status, headers);
    if (request.method === 'HEAD') return response.end();
    if (status !== 200 || !throttle(pathname)) return response.end(body);
    // A slow link: 32 KiB every 40 ms, so that a page's progress can be watched.
    for (let at = 0; at < body.length; at += 32 << 10) {
      response.write(body.subarray(at, at + (32 << 10)));
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    response.end();
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

/**
 * Starts `wasmeval serve ARGS --bind 127.0.0.1:0` (the binary of lib/report.js) and resolves
 * once it prints its address. Returns { url, close }; `close` sends SIGTERM and waits for the
 * exit. The server stops by itself after `seconds`, should a test leave it running: a backstop
 * for a leak, an hour, far past any file's work on a busy machine, never a budget the tests race.
 */
export async function serveWasmeval(args, seconds = 3600) {
  const { spawn } = await import('node:child_process');
  const { WASMEVAL } = await import('./report.js');
  const child = spawn('timeout', [String(seconds), WASMEVAL, 'serve', ...args, '--bind', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const exited = once(child, 'exit');
  const url = await new Promise((resolve, reject) => {
    const look = (chunk) => {
      printed += chunk;
      const found = printed.match(/serving on (http:\/\/127\.0\.0\.1:\d+)/);
      if (found) resolve(`${found[1]}/`);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    exited.then(() => reject(new Error(`wasmeval serve exited before listening:\n${printed}`)));
  });
  return {
    url,
    requests: [],
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

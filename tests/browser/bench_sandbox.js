// Benchmark (not a test): the browser's sandbox in headless Chromium on a static host. Prints the
// gzipped sizes of what a site with guests ships, and the time of a first run (download, compile,
// and for Python the harness's compilation) and of a warm run of a Python and a JavaScript task,
// with a fresh browser profile (nothing cached).
//
//   wasmeval report out/demo --site /tmp/site --with-runtimes
//   (cd tests/browser && npm run bench-sandbox -- /tmp/site)

import path from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { serve } from './lib/server.js';
import { launch, newPage } from './lib/browser.js';

const site = path.resolve(process.argv[2] ?? '/tmp/site');
const LIMITS = { fuel: 10_000_000_000, memory: 512 << 20, timeout_ms: 30_000, output: 1 << 20, disk: 64 << 20 };

for (const file of ['wasmeval_web_bg.wasm', 'sandbox/wasmeval_browser_sandbox_bg.wasm', 'runtimes/js/js.wasm', 'runtimes/python/python.wasm']) {
  const bytes = await readFile(path.join(site, file));
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  console.log(`${file.padEnd(42)} ${(bytes.length / 1e6).toFixed(2).padStart(7)} MB, ${(gzipped / 1e6).toFixed(2).padStart(6)} MB gzipped`);
}
const zip = (await stat(path.join(site, 'runtimes/python/files/1/python315.zip.chunks'))).isDirectory();
if (!zip) throw new Error('no chunked standard library in the site');

const bundle = JSON.parse(await readFile(path.join(site, 'bundle.json'), 'utf8'));
const pythonTask = bundle.tasks.find((t) => t.language === 'python' && t.references?.length);
const javascriptTask = {
  id: 'bench/js',
  language: 'javascript',
  prompt: '',
  entry_point: 'add',
  tests: [{ kind: 'calls', entry_point: 'add', cases: [{ name: 'add(1, 2)', args: [1, 2], expected: 3 }] }],
};
const requests = [
  ['Python', { task: pythonTask, sample: { index: 0, task_id: pythonTask.id, solution: pythonTask.references[0].code }, limits: LIMITS }],
  ['JavaScript', { task: javascriptTask, sample: { index: 0, task_id: 'bench/js', solution: 'function add(a, b) { return a + b; }' }, limits: LIMITS }],
];

const server = await serve({ '/': site });
const browser = await launch();
try {
  const page = await newPage(browser.context);
  await page.goto(server.url);
  for (const [name, request] of requests) {
    const times = await page.evaluate(async (request) => {
      const worker = new Worker('sandbox/worker.js', { type: 'module' });
      const runtimes = new URL('runtimes/', location.href).href;
      const once = () =>
        new Promise((resolve) => {
          const started = performance.now();
          worker.onmessage = (event) => {
            if (event.data.started) return;
            resolve({ ms: performance.now() - started, answer: event.data });
          };
          worker.postMessage(JSON.stringify({ ...request, runtimes }));
        });
      const first = await once();
      const warm = [];
      for (let i = 0; i < 5; i++) warm.push((await once()).ms);
      worker.terminate();
      warm.sort((a, b) => a - b);
      return { first: first.ms, warm: warm[2], answer: first.answer };
    }, request);
    if (!times.answer.ok) throw new Error(`${name}: ${times.answer.error}`);
    const result = JSON.parse(times.answer.ok);
    console.log(
      `${name.padEnd(10)} first run ${times.first.toFixed(0).padStart(6)} ms, warm ${times.warm.toFixed(0).padStart(5)} ms (median of 5)` +
        `  verdict ${result.result.verdict}, fuel ${result.result.fuel}, ${result.downloaded} bytes downloaded`,
    );
  }
  if (page.problems.length > 0) console.error(page.problems.join('\n'));
} finally {
  await browser.close();
  await server.close();
}

// The browser door of bench/conformance.py: runs samples in the site's sandbox worker
// (browser-sandbox/worker.js) in Debian's headless Chromium, as tests/sandbox.test.js does, and
// writes each answer as a line.
//
//   node tests/browser/conformance.mjs SITE REQUESTS.jsonl OUT.jsonl [WORKERS]
//
// SITE: a folder written by `wasmeval report RUN --site SITE --with-runtimes`. REQUESTS: one
// {key, fuel, message} a line, `message` the worker's request as JSON text ({task, sample,
// limits}: the task in wasmeval's format, the sample with its index) without `runtimes`, which
// this script adds. The text goes to the worker as it is: parsed by JavaScript, a task would lose
// what its numbers say beyond their value (`3.0` would arrive as `3`, an int to Python). OUT: one
// {key, result} or {key, error} a line, in the requests' order. Progress on stderr.

import { readFile, writeFile } from 'node:fs/promises';
import { serve } from './lib/server.js';
import { launch } from './lib/browser.js';

const [site, requestsPath, outPath, workersArg] = process.argv.slice(2);
if (!site || !requestsPath || !outPath) {
  console.error('usage: node tests/browser/conformance.mjs SITE REQUESTS.jsonl OUT.jsonl [WORKERS]');
  process.exit(2);
}
const WORKERS = Math.max(1, Number(workersArg || 2));
/** The slowest rate (fuel per second) before a run counts as stuck (as sandbox.test.js). */
const SLOWEST_FUEL_PER_SECOND = 2e7;
/** How long loading a guest may go without progress. */
const LOADING_STALL_MS = 300_000;
const CHUNK = 24;

const requests = (await readFile(requestsPath, 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const host = await serve({ '/': site });
const browser = await launch();
const page = await browser.context.newPage();
const problems = [];
page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
await page.goto(host.url, { waitUntil: 'domcontentloaded' });

// Workers kept on the page between chunks: each compiles the Python harness once.
await page.evaluate((count) => {
  window.__conformance = {
    workers: Array.from({ length: count }, () => new Worker('sandbox/worker.js', { type: 'module' })),
  };
}, WORKERS);

const answers = [];
const started = Date.now();
for (let at = 0; at < requests.length; at += CHUNK) {
  const chunk = requests.slice(at, at + CHUNK);
  const allowances = chunk.map((r) => Math.max(60_000, (r.fuel / SLOWEST_FUEL_PER_SECOND) * 1000));
  const got = await page.evaluate(async ({ chunk, allowances, stallMs }) => {
    const runtimes = new URL('runtimes/', location.href).href;
    const state = window.__conformance;
    const run = (slot, request, allowance) =>
      new Promise((resolve) => {
        const worker = state.workers[slot];
        const what = request.key;
        let timer;
        const watch = (ms, waitingFor) => {
          clearTimeout(timer);
          timer = setTimeout(() => resolve({ error: `no answer: ${waitingFor}`, stuck: true }), ms);
        };
        watch(stallMs, `loading the guest for ${what} made no progress for ${stallMs / 1000} s`);
        worker.onmessage = (event) => {
          if ('loading' in event.data) {
            watch(stallMs, `loading the guest for ${what} made no progress for ${stallMs / 1000} s`);
          } else if ('started' in event.data) {
            watch(allowance, `${what} ran for more than ${allowance / 1000} s`);
          } else if ('ok' in event.data || 'error' in event.data) {
            clearTimeout(timer);
            resolve(event.data);
          }
        };
        const text = request.message.trimEnd();
        worker.postMessage(`${text.slice(0, -1)},"runtimes":${JSON.stringify(runtimes)}}`);
      });
    const out = new Array(chunk.length);
    let next = 0;
    await Promise.all(
      state.workers.map(async (_, slot) => {
        while (next < chunk.length) {
          const i = next++;
          out[i] = await run(slot, chunk[i], allowances[i]);
          if (out[i].stuck) {
            state.workers[slot].terminate();
            state.workers[slot] = new Worker('sandbox/worker.js', { type: 'module' });
          }
        }
      }),
    );
    return out;
  }, { chunk, allowances, stallMs: LOADING_STALL_MS });
  got.forEach((answer, i) => {
    const key = chunk[i].key;
    if (answer.ok) {
      answers.push({ key, result: JSON.parse(answer.ok).result });
    } else {
      answers.push({ key, error: answer.error });
    }
  });
  const done = Math.min(at + CHUNK, requests.length);
  console.error(`[conformance/browser] ${done}/${requests.length} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
for (const problem of problems) console.error(`[conformance/browser] the page: ${problem}`);

await writeFile(outPath, answers.map((a) => JSON.stringify(a)).join('\n') + '\n');
await page.close();
await browser.close();
await host.close();

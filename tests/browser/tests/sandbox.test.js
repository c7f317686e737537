// The browser's sandbox (browser-sandbox/): a site built with `report --site DIR --with-runtimes`
// on a static host, no other process involved. Every Python sample of the demo gets, in the
// browser, the verdict and the fuel `wasmeval run` gave it (samples whose fuel is within 10% of
// the budget are listed, not compared), and so do samples that start from Python's scientific image; the hostile Python and JavaScript corpora get the verdicts their headers
// expect; an endless loop, a memory bomb and an output flood run from the Playground leave the
// page responsive; a HumanEval-sized Python run downloads a few chunks of the standard library,
// not its 54 MB.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../lib/server.js';
import { launch } from '../lib/browser.js';
import { open as openPage, waitFor, assertNoUncaught } from '../lib/page.js';
import { DEMO_FUEL, REPO, runDemo, wasmeval } from '../lib/report.js';
import { LOADING_STALL_MS, evaluateInBrowser, resultOf } from '../lib/sandbox.js';

/** `wasmeval run`'s default limits, as the worker reads them, with the demo runs' budget. */
const DEMO_LIMITS = { fuel: DEMO_FUEL, memory: 512 << 20, timeout_ms: 30_000, output: 1 << 20, disk: 64 << 20 };
/** `wasmeval run`'s default limits (core's `BrowserLimits::RUN_DEFAULTS`). */
const RUN_DEFAULT_LIMITS = { fuel: 10_000_000_000, memory: 512 << 20, timeout_ms: 30_000, output: 1 << 20, disk: 64 << 20 };
/** The limits the hostile corpora's headers assume (runner/tests/it/hostile.rs). */
const HOSTILE_LIMITS = { fuel: 4_000_000_000, memory: 256 << 20, timeout_ms: 60_000, output: 1 << 20, disk: 64 << 20 };
const HOSTILE_FLAGS = ['--memory', '256MiB', '--output-limit', '1MiB', '--fuel', '4000000000', '--timeout', '60s'];

let work;
let site;
let host;
let browser;

/**
 * Runs `runInto(out)` (a `wasmeval run` into the folder `out`) for work/NAME and writes that
 * run's bundle to work/NAME.json; returns the run folder.
 */
function runAndBundle(name, runInto) {
  const out = path.join(work, name);
  const run = runInto(out);
  assert.equal(run.status, 0, run.stderr);
  const bundle = path.join(work, `${name}.json`);
  const report = wasmeval(['report', out, '--bundle', bundle]);
  assert.equal(report.status, 0, report.stderr);
  return out;
}

before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-sandbox-'));
  site = path.join(work, 'site');
  const demo = runAndBundle('demo', runDemo);
  const report = wasmeval(['report', demo, '--site', site, '--with-runtimes']);
  assert.equal(report.status, 0, report.stderr);
  host = await serve({ '/': site });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await host?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The samples of a samples file as the worker takes them: each with its index in the file. */
async function samplesOf(file) {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim());
  return lines.map((line, index) => ({ index, ...JSON.parse(line) }));
}

/**
 * Runs `samples` (of the run bundled in work/NAME.json) in the browser with `limits` and returns
 * how they differ from `wasmeval run`'s results: another fuel figure, or another verdict. Samples whose fuel is within 10% of the budget are listed in `nearBudget` instead.
 */
async function differencesFromRun(name, samples, limits) {
  const bundle = JSON.parse(await readFile(path.join(work, `${name}.json`), 'utf8'));
  const tasks = new Map(bundle.tasks.map((t) => [t.id, t]));
  const ran = new Map(bundle.results.map((r) => [r.index, r]));
  const page = await openPage(browser, host);
  const started = Date.now();
  const answers = await evaluateInBrowser(
    page,
    samples.map((sample) => ({ task: tasks.get(sample.task_id), sample, limits })),
  );
  const seconds = (Date.now() - started) / 1000;
  const nearBudget = [];
  const differ = [];
  const ratios = [];
  samples.forEach((sample, i) => {
    const inBrowser = resultOf(answers[i], `sample ${sample.index}`);
    const expected = ran.get(sample.index);
    const fuels = [inBrowser.fuel, expected.fuel];
    if (fuels.some((f) => f >= 0.9 * limits.fuel)) {
      nearBudget.push(`${sample.index} (${sample.task_id}): run ${expected.verdict}, browser ${inBrowser.verdict}`);
      return;
    }
    if (expected.fuel > 0) ratios.push(inBrowser.fuel / expected.fuel);
    // The metered module counts wasmtime's fuel, and the browser's WASI charges host work as the
    // runner does (its trampolines and iovecs included): the figures are equal to the unit.
    if (inBrowser.fuel !== expected.fuel) {
      differ.push(`${sample.index} (${sample.task_id}): fuel ${expected.fuel} in run, ${inBrowser.fuel} in the browser`);
    }
    if (inBrowser.verdict !== expected.verdict) {
      differ.push(`${sample.index} (${sample.task_id}): run ${expected.verdict} (${expected.message}), browser ${inBrowser.verdict} (${inBrowser.message})`);
    }
  });
  ratios.sort((a, b) => a - b);
  assertNoUncaught(page);
  await page.close();
  return { differ, nearBudget, ratios, seconds };
}

test('every Python sample of the demo gets the verdict and the fuel `wasmeval run` gave it', async () => {
  const bundle = JSON.parse(await readFile(path.join(work, 'demo.json'), 'utf8'));
  const tasks = new Map(bundle.tasks.map((t) => [t.id, t]));
  const samples = (await samplesOf(path.join(REPO, 'demo/samples.jsonl'))).filter((s) =>
    ['python', 'javascript'].includes(tasks.get(s.task_id).language),
  );
  assert.ok(samples.length > 100, `only ${samples.length} Python and JavaScript samples in the demo`);
  const { differ, nearBudget, ratios, seconds } = await differencesFromRun('demo', samples, DEMO_LIMITS);
  console.log(`# browser fuel / wasmtime fuel per sample: min ${ratios[0].toFixed(4)}, median ${ratios[ratios.length >> 1].toFixed(4)}, max ${ratios[ratios.length - 1].toFixed(4)}`);
  console.log(`# ${samples.length} demo samples in the browser in ${seconds.toFixed(1)} s; within 10% of the budget, not compared: ${nearBudget.length ? nearBudget.join('; ') : 'none'}`);
  assert.deepEqual(differ, [], 'verdicts that differ from `wasmeval run`');
});

test('samples that import numpy, scikit-learn or matplotlib start from the scientific image, as in `wasmeval run`', async () => {
  const fixture = path.join(REPO, 'tests/fixtures/python-preloaded');
  const files = ['--tasks', path.join(fixture, 'tasks.jsonl'), '--samples', path.join(fixture, 'samples.jsonl')];
  runAndBundle('preloaded', (out) => wasmeval(['run', ...files, '--out', out, '--fresh']));
  const samples = await samplesOf(path.join(fixture, 'samples.jsonl'));
  assert.ok(samples.some((s) => s.solution.includes('sklearn')), 'the fixture has no scikit-learn sample');
  const { differ, nearBudget, seconds } = await differencesFromRun('preloaded', samples, RUN_DEFAULT_LIMITS);
  console.log(`# ${samples.length} preloaded-module samples in the browser in ${seconds.toFixed(1)} s`);
  assert.deepEqual(nearBudget, [], 'samples near the budget: their imports were paid for');
  assert.deepEqual(differ, [], 'verdicts that differ from `wasmeval run`');
});

/** The corpus programs of `language` whose file names `keep` accepts, with their headers. */
async function corpus(language, keep) {
  const dir = path.join(REPO, 'tests/hostile', language);
  const comment = language === 'python' ? '#' : '//';
  const files = (await readdir(dir)).filter((f) => f.endsWith(language === 'python' ? '.py' : '.js') && keep(f)).sort();
  return Promise.all(
    files.map(async (name) => {
      const source = await readFile(path.join(dir, name), 'utf8');
      const header = source.split('\n').find((l) => l.startsWith(`${comment} expect: `));
      return { name, source, expect: header.slice(`${comment} expect: `.length).trim() };
    }),
  );
}

test('the hostile Python and JavaScript corpora get the verdicts their headers expect', async () => {
  const runTime = (f) => !/^(ct|as|ca)_/.test(f);
  const suites = [
    ['python', 'task.json', await corpus('python', runTime)],
    ['python', 'assertion_task.json', await corpus('python', (f) => f.startsWith('as_'))],
    ['js', 'task.json', await corpus('js', runTime)],
    ['js', 'calls_task.json', await corpus('js', (f) => f.startsWith('ca_'))],
  ];
  const page = await openPage(browser, host);
  const failures = [];
  let count = 0;
  for (const [language, taskFile, programs] of suites) {
    // The task as the runner reads it: `wasmeval run`'s bundle holds it parsed.
    const task = JSON.parse(await readFile(path.join(REPO, 'tests/hostile', language, taskFile), 'utf8'));
    const taskId = task.task_id ?? task.id;
    const name = `${language}-${taskFile.replace('.json', '')}`;
    await writeFile(path.join(work, `${name}.tasks.jsonl`), JSON.stringify(task) + '\n');
    await writeFile(
      path.join(work, `${name}.samples.jsonl`),
      programs.map((p) => JSON.stringify({ task_id: taskId, solution: p.source, model: p.name })).join('\n') + '\n',
    );
    runAndBundle(name, (out) => wasmeval([
      'run', '--tasks', path.join(work, `${name}.tasks.jsonl`), '--samples', path.join(work, `${name}.samples.jsonl`),
      '--out', out, '--fresh', ...HOSTILE_FLAGS,
    ]));
    const bundle = JSON.parse(await readFile(path.join(work, `${name}.json`), 'utf8'));
    const requests = programs.map((p, index) => ({
      task: bundle.tasks[0],
      sample: { index, task_id: taskId, solution: p.source, model: p.name },
      limits: HOSTILE_LIMITS,
    }));
    const answers = await evaluateInBrowser(page, requests);
    programs.forEach((program, i) => {
      count += 1;
      const result = resultOf(answers[i], `${language}/${program.name}`);
      if (result.verdict !== program.expect) {
        failures.push(`${language}/${program.name}: expected ${program.expect}, got ${result.verdict} (${result.message})`);
      }
      if (result.verdict === 'timeout' && !['fuel', 'virtual_time'].includes(result.timeout_cause)) {
        failures.push(`${language}/${program.name}: a timeout from ${result.timeout_cause}, not fuel or virtual time`);
      }
    });
  }
  console.log(`# ${count} hostile programs in the browser`);
  assert.deepEqual(failures, []);
  assertNoUncaught(page);
  await page.close();
});

test('an endless loop, a memory bomb and an output flood leave the page responsive', async () => {
  const page = await openPage(browser, host);
  await waitFor(page, '[data-testid=view-playground]');
  await page.click('[data-testid=view-playground]');
  await waitFor(page, '[data-testid=playground-code]');
  assert.equal(await page.innerText('[data-testid=playground-where]'), 'Runs in this browser.');
  await page.selectOption('[data-testid=playground-task]', 'demo/2');
  const editor = page.locator('[data-testid=playground-code]');
  const prompt = await editor.inputValue();
  const hostile = [
    ['    while True:\n        pass\n', 'timeout'],
    ['    x = []\n    while True:\n        x.append(bytearray(1 << 20))\n', 'memory_limit'],
    ["    while True:\n        print('flood' * 1000)\n", 'output_limit'],
  ];
  // Nothing cached: the first run downloads the guest and shows how far it is.
  await page.evaluate(() => caches.delete('wasmeval-guests-v1'));
  let first = true;
  for (const [body, expected] of hostile) {
    await editor.fill(prompt + body);
    await page.click('[data-testid=playground-run]');
    if (first) {
      await page.waitForFunction(
        () => /Loading the interpreter \(python\.wasm.*of .* MB/.test(document.querySelector('[data-testid=playground-progress]')?.innerText ?? ''),
        null,
        { timeout: LOADING_STALL_MS },
      );
      first = false;
    }
    // While the guest runs, the page answers at once: the work is in the worker.
    for (let i = 0; i < 3; i++) {
      const asked = Date.now();
      assert.equal(await page.evaluate(() => document.querySelector('[data-testid=playground-code]') !== null), true);
      assert.ok(Date.now() - asked < 1000, `the page took ${Date.now() - asked} ms to answer during a run`);
    }
    const verdict = page.locator('[data-testid=playground-verdict], [data-testid=playground-error]');
    // Loading the guest, then at most the page's own wall clock (30 s) once it runs.
    await verdict.first().waitFor({ timeout: LOADING_STALL_MS + 30_000 });
    assert.equal((await verdict.first().innerText()).trim(), expected, await page.innerText('[data-testid=playground-result]'));
  }
  // On a phone, nothing of the view is wider than the screen (the tables scroll in their box).
  await page.setViewportSize({ width: 390, height: 844 });
  const overflowing = await page.evaluate(() =>
    [...document.querySelectorAll('.playground *')]
      .filter((e) => !e.closest('.table-scroll, .editor') && e.getBoundingClientRect().right > window.innerWidth + 1)
      .map((e) => e.tagName + (e.dataset.testid ? `[${e.dataset.testid}]` : '')),
  );
  assert.deepEqual(overflowing, [], 'wider than a 390 px screen');
  assertNoUncaught(page);
  await page.close();
});

test('a HumanEval-sized Python run downloads a few chunks of the standard library, not all of it', async () => {
  const zip = (await readdir(path.join(site, 'runtimes/python/files/1'))).find((f) => f.endsWith('.chunks'));
  const chunks = await readdir(path.join(site, 'runtimes/python/files/1', zip));
  const before = host.requests.length;
  const page = await openPage(browser, host);
  const bundle = JSON.parse(await readFile(path.join(work, 'demo.json'), 'utf8'));
  const task = bundle.tasks.find((t) => t.id === 'demo/2');
  const sample = { index: 0, task_id: 'demo/2', solution: task.references[0].code };
  const [answer] = await evaluateInBrowser(page, [{ task, sample, limits: DEMO_LIMITS }]);
  assert.equal(resultOf(answer, 'the reference').verdict, 'passed');
  const fetched = host.requests.slice(before).filter((r) => r.path.includes('.chunks/'));
  const distinct = new Set(fetched.map((r) => r.path));
  const bytes = fetched.reduce((sum, r) => sum + (r.bytes ?? 0), 0);
  console.log(`# the standard library: ${distinct.size} of ${chunks.length} chunks of 128 KiB fetched (${bytes} bytes)`);
  assert.ok(distinct.size > 0 && distinct.size < chunks.length / 4, `${distinct.size} of ${chunks.length} chunks`);
  await page.close();
});

test('the wall-clock backstop: a run past its time is stopped by terminating the worker, and the next run starts a new one', async () => {
  // A budget of 1e13 takes the loop minutes, so the page's clock, at 8 s, ends it. The next run
  // has 8 s too, for a new worker to load the guest and judge: 3.6 s when a compile shared the
  // cores (scripts/test's lanes on a fresh clone).
  const page = await openPage(browser, host, '?timeout=8&fuel=1e13');
  await waitFor(page, '[data-testid=view-playground]');
  await page.click('[data-testid=view-playground]');
  await waitFor(page, '[data-testid=playground-code]');
  await page.selectOption('[data-testid=playground-task]', 'demo/2');
  const editor = page.locator('[data-testid=playground-code]');
  const prompt = await editor.inputValue();
  const verdict = page.locator('[data-testid=playground-verdict], [data-testid=playground-error]');
  await editor.fill(prompt + '    while True:\n        pass\n');
  await page.click('[data-testid=playground-run]');
  // Loading the guest, then the page's clock of 8 s.
  await verdict.first().waitFor({ timeout: LOADING_STALL_MS + 8_000 });
  assert.equal((await verdict.first().innerText()).trim(), 'timeout');
  assert.match(await page.innerText('[data-testid=playground-result]'), /wall-clock/);
  await editor.fill(prompt + '    return 0\n');
  await page.click('[data-testid=playground-run]');
  // A new worker (the last one was terminated) loads the guest again and judges the program.
  await page.waitForFunction(
    () => document.querySelector('[data-testid=playground-verdict]')?.innerText.trim() === 'wrong_answer',
    null,
    { timeout: LOADING_STALL_MS + 8_000 },
  );
  assertNoUncaught(page);
  await page.close();
});

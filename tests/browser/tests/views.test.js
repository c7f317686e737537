// The site's other ways in and its views, in headless Chromium: the landing page (demo button,
// file picker), a filter menu that edits the query (numbers still equal the command line's),
// every view rendering without an uncaught error, a sample's drill-down, and a chart bar reached
// with the keyboard.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { REPO, wasmeval, expectedOverview, readOverview, diffOverview } from '../lib/report.js';

const TIMEOUT = 30_000;
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

async function open(url) {
  const page = await newPage(browser.context);
  await page.goto(server.url + url);
  await page.locator('[data-testid=app]').waitFor({ timeout: TIMEOUT });
  return page;
}

async function expectOverview(page, expected, what) {
  const want = { rows: expected.rows, overall: expected.overall };
  const predicate = `(${diffOverview})((${readOverview})(), ${JSON.stringify(want)}).length === 0`;
  try {
    await page.waitForFunction(predicate, null, { timeout: TIMEOUT });
  } catch (error) {
    if (!error.name?.includes('Timeout')) throw error;
    const problems = diffOverview(await page.evaluate(readOverview), want);
    assert.fail(`${what}:\n  ${[...problems, ...page.problems].join('\n  ')}`);
  }
}

function assertNoUncaught(page) {
  assert.deepEqual(page.problems.filter((p) => p.startsWith('uncaught')), [], 'the page threw');
}

test('without a bundle beside it the landing page opens the demo and picked files', async () => {
  const page = await open('landing/');
  await page.locator('[data-testid=drop-zone]').waitFor({ timeout: TIMEOUT });
  await page.click('[data-testid=open-demo]');
  await expectOverview(page, expectedOverview(bundle, { by: ['model'] }), 'the demo');

  const picked = await open('landing/');
  await picked.locator('[data-testid=file-input]').setInputFiles(bundle);
  await expectOverview(picked, expectedOverview(bundle, { by: ['model'] }), 'a picked file');
  assertNoUncaught(page);
  assertNoUncaught(picked);
  await page.close();
  await picked.close();
});

test('a filter menu writes its term into the query, and the numbers follow', async () => {
  const page = await open('?bundle=bundle.json');
  await page.locator('table[data-testid=overview]').waitFor({ timeout: TIMEOUT });
  await page.locator('select[data-testid=filter-topic]').selectOption('strings');
  assert.equal(await page.locator('input[data-testid=query]').inputValue(), 'topic=strings');
  await expectOverview(
    page,
    expectedOverview(bundle, { by: ['model'], where: ['topic=strings'] }),
    'topic menu',
  );
  assert.match(await page.locator('[data-testid=command]').innerText(), /--where 'topic=strings'/);
  // A query that does not parse is shown as an error and keeps the selection in force.
  await page.locator('input[data-testid=query]').fill('year=abc');
  await page.locator('input[data-testid=query]').press('Enter');
  await page.locator('[data-testid=query-error]').waitFor({ timeout: TIMEOUT });
  await expectOverview(
    page,
    expectedOverview(bundle, { by: ['model'], where: ['topic=strings'] }),
    'after a bad query',
  );
  assertNoUncaught(page);
  await page.close();
});

test('every view renders, a sample opens in detail, and chart bars take keyboard focus', async () => {
  const page = await open('?bundle=bundle.json');
  await page.locator('table[data-testid=overview]').waitFor({ timeout: TIMEOUT });

  await page.click('[data-testid=view-explorer]');
  await page.locator('[data-testid=distribution-topic] svg rect.bar').first().waitFor({ timeout: TIMEOUT });
  await page.locator('table[data-testid=tasks] tbody tr').first().waitFor({ timeout: TIMEOUT });

  await page.click('[data-testid=view-performance]');
  // A bar of value 0 has no height, so take one that shows.
  const bar = page.locator('[data-testid=performance-topic] rect.bar:not([data-value="0"])').first();
  await bar.waitFor({ timeout: TIMEOUT });
  await bar.focus();
  const focusText = page.locator('[data-testid=performance-topic] .chart-focus');
  assert.match(await focusText.innerText(), /: \d/, 'a focused bar reads out its value');

  await page.click('[data-testid=view-compare]');
  await page.locator('table[data-testid=compare-metrics] tbody tr').first().waitFor({ timeout: TIMEOUT });
  await page.locator('table[data-testid=compare-tasks] tbody tr').first().waitFor({ timeout: TIMEOUT });

  await page.click('[data-testid=view-samples]');
  const first = page.locator('table[data-testid=samples] button').first();
  await first.waitFor({ timeout: TIMEOUT });
  await first.click();
  await page.locator('[data-testid=sample-detail]').waitFor({ timeout: TIMEOUT });
  await page.locator('table[data-testid=cases] tbody tr').first().waitFor({ timeout: TIMEOUT });
  assertNoUncaught(page);
  await page.close();
});

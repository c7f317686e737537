// Blind review in headless Chromium, on the demo: a reviewer scores five pairs by keyboard
// alone, reloads the page half-way (nothing is lost), finishes and exports; a second reviewer's
// file (the first's, rescored) is imported with it; the aggregates on the page equal `wasmeval
// report --reviews` on the same two files; a file with a score off the scale is refused with
// the field's path.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../lib/server.js';
import { CPU_SLOWDOWN, launch, slowDown } from '../lib/browser.js';
import { open as openPage, waitFor, assertNoUncaught } from '../lib/page.js';
import { REPO, runDemo, wasmeval } from '../lib/report.js';

let work;
let demo;
let server;
let browser;

before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-review-'));
  demo = path.join(work, 'demo');
  const ran = runDemo(demo);
  assert.equal(ran.status, 0, ran.stderr);
  const made = wasmeval(['report', demo, '--site', path.join(work, 'site')]);
  assert.equal(made.status, 0, made.stderr);
  server = await serve({ '/': path.join(work, 'site') });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const progress = (page) => page.innerText('[data-testid=review-progress]');

/** Scores the item shown by keyboard: every row (10 scores, then which is better), then Enter. */
async function scoreItem(page, digits) {
  await page.focus('[data-testid=review-item]');
  for (const digit of digits) await page.keyboard.press(digit);
  await page.keyboard.press('Enter');
}

test('a reviewer scores five pairs by keyboard, survives a reload, and the aggregates equal the CLI', async () => {
  const page = await openPage(browser, server, '?view=review');
  await waitFor(page, '[data-testid=review-start]');
  await page.fill('[data-testid=review-reviewer]', 'ada');
  await page.fill('[data-testid=review-seed]', '7');
  await page.click('[data-testid=review-start]');
  await waitFor(page, '[data-testid=review-item]');
  assert.match(await progress(page), /^1 of \d+/);
  // Blind: no model name or verdict is shown.
  const shown = await page.innerText('[data-testid=review-item]');
  assert.doesNotMatch(shown, /hare-1b|tortoise-7b|passed|wrong_answer/);
  const patterns = ['44331' + '22114' + '1', '43434' + '21212' + '2', '33333' + '33333' + '1'];
  // Keys arrive faster than the page renders, and each must still count.
  await slowDown(page, 20);
  for (let i = 0; i < 3; i++) await scoreItem(page, patterns[i].split(''));
  assert.match(await progress(page), /^4 of \d+ · 3 scored/);
  await slowDown(page, CPU_SLOWDOWN);

  // Closing the tab loses nothing.
  await page.reload();
  await waitFor(page, '[data-testid=review-item]');
  assert.match(await progress(page), /^4 of \d+ · 3 scored/);
  await scoreItem(page, '22224444442'.split(''));
  await scoreItem(page, '41414141411'.split(''));
  assert.match(await progress(page), /^6 of \d+ · 5 scored/);
  await page.click('[data-testid=review-finish]');
  await waitFor(page, '[data-testid=review-aggregates]');
  assert.match(await page.innerText('[data-testid=review-finished]'), /ada: 5 of \d+ items scored/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=review-export]')]);
  const ada = path.join(work, 'ada.json');
  await download.saveAs(ada);
  const adaFile = JSON.parse(await readFile(ada, 'utf8'));
  assert.equal(adaFile.items.length, 5);
  assert.equal(adaFile.reviewer, 'ada');
  // A second reviewer: the same items, some scores moved by one level.
  const bob = structuredClone(adaFile);
  bob.reviewer = 'bob';
  bob.items.forEach((item, i) => {
    if (i % 2 === 0) item.scores.usability = item.scores.usability.map((s) => (s === 2 ? 1 : s));
    if (i === 1) item.better = 1 - item.better;
  });
  const bobPath = path.join(work, 'bob.json');
  await writeFile(bobPath, JSON.stringify(bob));

  // A fresh page: a new session, both files imported.
  await page.click('[data-testid=review-new]');
  await page.locator('[data-testid=review-import]').setInputFiles([ada, bobPath]);
  await page.waitForFunction(() => /2 reviewer\(s\)/.test(document.querySelector('[data-testid=review-aggregates] h3')?.innerText ?? ''));
  const cli = wasmeval(['report', demo, '--reviews', ada, bobPath]);
  assert.equal(cli.status, 0, cli.stderr);
  // Every table of the CLI is on the page, cell for cell.
  const pageTables = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=review-aggregates] table')].map((t) => ({
      caption: t.querySelector('caption')?.innerText,
      rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim())),
    })),
  );
  const cliTables = parseTables(cli.stdout);
  for (const [title, rows] of Object.entries(cliTables)) {
    const onPage = pageTables.find((t) => t.caption === title);
    assert.ok(onPage, `no table "${title}" on the page`);
    assert.deepEqual(onPage.rows, rows, `table "${title}"`);
  }
  assert.ok(cliTables.agreement.some((row) => row[0] === 'usability' && row[1] !== '-'), 'kappa of usability');
  await page.screenshot({ path: path.join(REPO, 'out/browser/review-aggregates-1366.png'), fullPage: true });

  // A score off the scale is refused with the field's path.
  const bad = structuredClone(adaFile);
  bad.items[0].scores.usability[0] = 0;
  const badPath = path.join(work, 'bad.json');
  await writeFile(badPath, JSON.stringify(bad));
  await page.locator('[data-testid=review-import]').setInputFiles(badPath);
  await waitFor(page, '[data-testid=review-error]');
  assert.match(await page.innerText('[data-testid=review-error]'), /bad\.json: items\[0\]\.scores\.usability\[0\]: 0 is not on the scale/);
  assertNoUncaught(page);
  await page.close();
});

/** The CLI's text tables by title: { title: [[cell, ...], ...] } (header rows left out). */
function parseTables(text) {
  const tables = {};
  let title = null;
  let header = false;
  for (const line of text.split('\n')) {
    const heading = line.match(/^(.+):$/);
    if (heading) {
      title = heading[1];
      tables[title] = [];
      header = true;
    } else if (title && line.trim()) {
      if (header) header = false;
      else tables[title].push(line.trim().split(/\s+/));
    }
  }
  return tables;
}

test('a custom rubric loads from JSON (a bad one names its field), and code is highlighted', async () => {
  const page = await openPage(browser, server, '?view=review');
  await waitFor(page, '[data-testid=review-start]');
  // The method-level rubric shows what each level of the focused row means.
  await page.selectOption('[data-testid=review-rubric]', { label: 'Method-level review' });
  await page.fill('[data-testid=review-reviewer]', 'dee');
  await page.click('[data-testid=review-start]');
  await waitFor(page, '[data-testid=review-levels]');
  assert.match(await page.innerText('[data-testid=review-levels]'), /Mostly correct\s+Wrong only on edge cases/);
  await page.click('[data-testid=review-new]');
  await waitFor(page, '[data-testid=review-start]');
  const rubric = {
    id: 'style', title: 'Style only', mode: 'single',
    properties: [{ name: 'style', levels: [{ value: 0, label: 'messy' }, { value: 1, label: 'tidy' }] }],
  };
  const good = path.join(work, 'style.json');
  await writeFile(good, JSON.stringify(rubric));
  const bad = path.join(work, 'bad-rubric.json');
  await writeFile(bad, JSON.stringify({ ...rubric, properties: [{ name: 'style', levels: [{ value: 1, label: 'only' }] }] }));
  await page.locator('[data-testid=review-custom-rubric]').setInputFiles(bad);
  await waitFor(page, '[data-testid=review-rubric-error]');
  assert.match(await page.innerText('[data-testid=review-rubric-error]'), /bad-rubric\.json: properties\[0\]\.levels/);
  await page.locator('[data-testid=review-custom-rubric]').setInputFiles(good);
  await page.waitForFunction(() => {
    const select = document.querySelector('[data-testid=review-rubric]');
    return select && select.options[select.selectedIndex].text === 'Style only';
  });
  await page.fill('[data-testid=review-reviewer]', 'cy');
  await page.click('[data-testid=review-start]');
  await waitFor(page, '[data-testid=review-item]');
  // One sample per item, one row: a single digit scores it.
  assert.equal(await page.locator('[data-testid=review-side-1]').count(), 0);
  assert.equal(await page.locator('table.rubric tr').count(), 1);
  assert.ok((await page.locator('[data-testid=review-side-0] .tok-keyword').count()) > 0, 'keywords are highlighted');
  await slowDown(page, 20);
  await page.focus('[data-testid=review-item]');
  await page.keyboard.press('2');
  await page.keyboard.press('Enter');
  assert.match(await progress(page), /^2 of \d+ · 1 scored/);
  assertNoUncaught(page);
  await page.close();
});

// What a researcher sees of a bundle, in headless Chromium: the header names the bundle (run,
// models, date, and the demo's note that its data is synthetic); a gzipped bundle on a slow
// static host loads with its bytes counted and no landing page meanwhile; the "95% intervals"
// box shows the command line's `--ci` numbers; a researcher's site ships no demo; charts only
// for facets with values; and at a phone's width (390 px) the filters fold behind a button, wide
// tables scroll in their own box with a hint, the current view's tab stays on screen, and no
// page is wider than the screen nor cuts a control off at its edge. Review keeps its scoring
// rows beside the code at both sizes, and says why Start waits and, at the end, the seed a second
// reviewer needs and how to merge. Screenshots of each view at 1366x768 and 390x844 are saved in
// out/browser/ for a person to look at.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { access, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../lib/server.js';
import { launch } from '../lib/browser.js';
import { open as openPage, waitFor, waitForOverview, assertNoUncaught } from '../lib/page.js';
import { REPO, runDemo, wasmeval, expectedOverview } from '../lib/report.js';

const SCREENSHOTS = path.join(REPO, 'out/browser');

let work; // the demo's run, its bundle and two sites
let demo; // the demo's run folder
let bundle; // its bundle, as JSON, for the command line's numbers
let server;
let browser;

before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-layout-'));
  demo = path.join(work, 'demo');
  const run = runDemo(demo);
  assert.equal(run.status, 0, run.stderr);
  bundle = path.join(work, 'bundle.json');
  for (const args of [
    ['report', demo, '--bundle', bundle],
    ['report', demo, '--site', path.join(work, 'gz'), '--gzip'],
    ['report', demo, '--site', path.join(work, 'plain')],
  ]) {
    const made = wasmeval(args);
    assert.equal(made.status, 0, made.stderr);
  }
  // The demo as a benchmark without topics or years (as HumanEval is).
  const bare = path.join(work, 'bare');
  await cp(path.join(work, 'plain'), bare, { recursive: true });
  const stripped = JSON.parse(await readFile(path.join(bare, 'bundle.json'), 'utf8'));
  for (const task of stripped.tasks) {
    delete task.metadata.topics;
    delete task.metadata.year;
  }
  await writeFile(path.join(bare, 'bundle.json'), JSON.stringify(stripped));
  server = await serve(
    { '/gz/': path.join(work, 'gz'), '/plain/': path.join(work, 'plain'), '/bare/': bare },
    { throttle: (p) => p === '/plain/bundle.json' },
  );
  browser = await launch();
  await mkdir(SCREENSHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const exists = (file) => access(file).then(() => true, () => false);

test('a gzipped bundle opens, named in the header with the demo note, and a site ships no demo', async () => {
  assert.ok(await exists(path.join(work, 'gz/bundle.json.gz')));
  assert.ok(!(await exists(path.join(work, 'gz/bundle.json'))));
  assert.ok(!(await exists(path.join(work, 'gz/demo-bundle.json'))), 'report --site copied the demo bundle');
  const page = await openPage(browser, server, 'gz/');
  await waitForOverview(page, expectedOverview(bundle, { by: ['model'] }), 'the gzipped bundle');
  const name = await page.innerText('[data-testid=bundle-name]');
  assert.match(name, /^demo · hare-1b, tortoise-7b · \d{4}-\d{2}-\d{2}$/);
  assert.match(await page.innerText('[data-testid=bundle-note]'), /Synthetic data/);
  // "Open another": this site has no demo to offer.
  await page.click('text=Open another');
  await waitFor(page, '[data-testid=drop-zone]');
  assert.equal(await page.locator('[data-testid=open-demo]').count(), 0);
  assertNoUncaught(page);
  await page.close();
});

test('a slow bundle shows its bytes as they arrive, not the landing page', async () => {
  const page = await openPage(browser, server, 'plain/');
  await waitFor(page, '[data-testid=loading]');
  assert.equal(await page.locator('[data-testid=drop-zone]').count(), 0, 'the landing page shows while loading');
  await page.waitForFunction(
    () => /Loading bundle\.json… \d+\.\d MB of \d+\.\d MB/.test(document.querySelector('[data-testid=status]')?.innerText ?? ''),
    null,
    { timeout: 30_000 },
  );
  await waitForOverview(page, expectedOverview(bundle, { by: ['model'] }), 'the slow bundle');
  assertNoUncaught(page);
  await page.close();
});

test('95% intervals are the command line\'s --ci numbers, and live in the URL', async () => {
  const page = await openPage(browser, server, 'gz/');
  await waitFor(page, '[data-testid=intervals]');
  await page.check('[data-testid=intervals]');
  await waitForOverview(page, expectedOverview(bundle, { by: ['model'], ci: true }), 'with intervals');
  assert.match(page.url(), /[?&]ci=1/);
  assert.match(await page.innerText('[data-testid=command]'), / --ci$/);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'overview-intervals-1366.png'), fullPage: true });
  // A query that does not parse leaves the numbers of the last one that did, and says so.
  await page.fill('[data-testid=query]', 'model=hare-1b');
  await page.press('[data-testid=query]', 'Enter');
  await page.fill('[data-testid=query]', 'model==hare-1b');
  await page.press('[data-testid=query]', 'Enter');
  await waitFor(page, '[data-testid=query-error]');
  assert.match(await page.innerText('[data-testid=query-error]'), /still those of the last valid selection, `model=hare-1b`/);
  await waitForOverview(page, expectedOverview(bundle, { by: ['model'], where: ['model=hare-1b'], ci: true }), 'after a bad query');
  assert.match(await page.innerText('[data-testid=command]'), /--where 'model=hare-1b'/);
  assertNoUncaught(page);
  await page.close();
});

test('charts: many groups lie down with whole labels, bars carry n and intervals, a benchmark without topics charts none', async () => {
  const page = await openPage(browser, server, 'gz/?by=task&ci=1');
  await waitFor(page, '[data-testid=overview-chart]');
  const chart = page.locator('[data-testid=overview-chart]');
  assert.equal(await chart.getAttribute('data-orientation'), 'horizontal');
  // Each task's label is written out whole (wrapped lines joined), none cut with an ellipsis.
  const labels = await chart.locator('text.category').evaluateAll((texts) => texts.map((t) => t.textContent));
  assert.deepEqual(labels, Array.from({ length: 42 }, (_, i) => `demo/${i}`));
  const bars = chart.locator('rect.bar');
  assert.equal(await bars.count(), 42);
  assert.ok(Number(await bars.first().getAttribute('data-count')) > 0);
  assert.equal(await chart.locator('line.whisker').count(), 42 * 3);
  // Another metric charted: pass@1's interval is gone with it.
  await page.selectOption('[data-testid=overview-rate]', 'solvability');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=overview-chart] line.whisker').length === 0);
  // The chart uses the width there is.
  const width = await chart.locator('svg').evaluate((svg) => svg.getBoundingClientRect().width);
  assert.ok(width > 1000, `the chart is ${width} px wide in a 1280 px page`);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'overview-by-task-1366.png'), fullPage: true });
  assertNoUncaught(page);
  await page.close();

  const bare = await openPage(browser, server, 'bare/?view=dataset');
  await waitFor(bare, '[data-testid=facets-absent]');
  assert.match(await bare.innerText('[data-testid=facets-absent]'), /No selected task has a topic or a year/);
  assert.equal(await bare.locator('[data-testid=distribution-topic]').count(), 0);
  assert.equal(await bare.locator('[data-testid=distribution-complexity]').count(), 1);
  // "By topic & complexity" charts only the facets with values, and says which it left out.
  await bare.click('[data-testid=view-performance]');
  await waitFor(bare, '[data-testid=performance-absent]');
  assert.equal(await bare.innerText('[data-testid=performance-absent]'), 'No selected task has a topic or a year, so they are not charted.');
  assert.equal(await bare.locator('[data-testid=performance-topic]').count(), 0);
  assert.equal(await bare.locator('[data-testid=performance-year]').count(), 0);
  assert.equal(await bare.locator('[data-testid=performance-complexity]').count(), 1);
  assertNoUncaught(bare);
  await bare.close();
});

/** The page's width beyond the viewport, in pixels (0 when nothing overflows). */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * The controls (inputs, menus, buttons) that reach past the viewport's right edge, outside any
 * box that scrolls sideways: hidden overflow cuts them off without widening the page.
 */
const cutOff = (page) =>
  page.evaluate(() => {
    const scrolls = (e) => {
      for (let a = e.parentElement; a; a = a.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return true;
      }
      return false;
    };
    return [...document.querySelectorAll('input, select, button, textarea')]
      .filter((e) => e.getClientRects().length > 0 && !scrolls(e))
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map((e) => `${e.tagName.toLowerCase()}${e.dataset.testid ? `[${e.dataset.testid}]` : ''} to ${Math.round(e.getBoundingClientRect().right)} px`);
  });

// The views' menu buttons (view-<name>).
const VIEWS = ['overview', 'explorer', 'performance', 'compare', 'review', 'samples'];

for (const [width, height] of [[1366, 768], [390, 844]]) {
  test(`every view at ${width}x${height}: nothing wider than the screen, screenshots saved`, async () => {
    const page = await openPage(browser, server, 'gz/');
    await page.setViewportSize({ width, height });
    await waitFor(page, 'table[data-testid=overview]');
    const phone = width < 640;
    if (phone) {
      // The filters are folded behind one button, which opens them.
      assert.ok(await page.isVisible('[data-testid=filters-toggle]'));
      assert.ok(!(await page.isVisible('[data-testid=query]')), 'the query box shows on a phone before asked for');
      await page.click('[data-testid=filters-toggle]');
      assert.ok(await page.isVisible('[data-testid=query]'));
      await page.click('[data-testid=filters-toggle]');
      // The overview's table is wider than a phone: it scrolls in its box, with a hint.
      const box = await page.evaluate(() => {
        const scroller = document.querySelector('table[data-testid=overview]').closest('.table-scroll');
        return { scroll: scroller.scrollWidth, client: scroller.clientWidth };
      });
      assert.ok(box.scroll > box.client, `the overview table fits a phone? ${JSON.stringify(box)}`);
      assert.ok(await page.locator('[data-testid=scroll-hint]').first().isVisible());
    } else {
      assert.ok(!(await page.isVisible('[data-testid=filters-toggle]')));
      assert.ok(await page.isVisible('[data-testid=query]'));
    }
    for (const view of VIEWS) {
      await page.click(`[data-testid=view-${view}]`);
      await page.waitForTimeout(200);
      // The tab of the view shown is on screen, whole (a phone's menu used to scroll it away).
      const tab = await page.$eval(`[data-testid=view-${view}]`, (t) => {
        const box = t.getBoundingClientRect();
        return { current: t.classList.contains('current'), left: box.left, right: box.right, top: box.top, bottom: box.bottom };
      });
      assert.ok(tab.current, `${view}'s tab is not marked current`);
      assert.ok(tab.left >= 0 && tab.right <= width && tab.top >= 0 && tab.bottom <= height, `${view}'s tab at ${width} px is off screen: ${JSON.stringify(tab)}`);
      assert.ok((await overflow(page)) <= 0, `${view} at ${width} px is ${await overflow(page)} px too wide`);
      assert.deepEqual(await cutOff(page), [], `${view} at ${width} px cuts off controls`);
      await page.screenshot({ path: path.join(SCREENSHOTS, `${view}-${width}.png`), fullPage: true });
    }
    // A sample's page, the longest of all.
    const first = page.locator('table[data-testid=samples] button').first();
    await first.click();
    await waitFor(page, '[data-testid=sample-detail]');
    assert.ok((await overflow(page)) <= 0, `a sample at ${width} px is ${await overflow(page)} px too wide`);
    await page.screenshot({ path: path.join(SCREENSHOTS, `sample-${width}.png`), fullPage: true });
    assertNoUncaught(page);
    await page.close();
  });
}

for (const [width, height] of [[1366, 768], [390, 844]]) {
  test(`Review at ${width}x${height}: the scoring rows beside the code, Start's hint, the seed and the merge command at the end`, async () => {
    const page = await openPage(browser, server, 'gz/?view=review');
    await page.setViewportSize({ width, height });
    await waitFor(page, '[data-testid=review-start]');
    // Opened by its URL, the last tab is on screen too (it was scrolled out of a phone's menu).
    const tab = await page.$eval('[data-testid=view-review]', (t) => t.getBoundingClientRect().toJSON());
    assert.ok(tab.left >= 0 && tab.right <= width && tab.bottom <= height, `the Review tab: ${JSON.stringify(tab)}`);
    // Start waits for a name, and says so.
    assert.ok(await page.locator('[data-testid=review-start]').isDisabled());
    assert.match(await page.innerText('[data-testid=review-start-hint]'), /Type your name as reviewer/);
    await page.fill('[data-testid=review-reviewer]', 'ada');
    assert.equal(await page.locator('[data-testid=review-start-hint]').count(), 0);
    assert.match(await page.innerText('[data-testid=review-seed-hint]'), /same seed/);
    await page.fill('[data-testid=review-seed]', '5');
    await page.click('[data-testid=review-start]');
    await waitFor(page, '[data-testid=review-item]');
    assert.match(await page.innerText('[data-testid=review-progress]'), /^1 of \d+ · 0 scored · seed 5/);
    // With the item at the top of the screen, the code and the rubric's focused row are both on
    // screen, apart; on a wide screen every row of the rubric is.
    await page.$eval('[data-testid=review-item]', (item) => item.scrollIntoView({ block: 'start' }));
    const boxes = await page.evaluate(() => {
      const box = (e) => e.getBoundingClientRect().toJSON();
      return {
        code: box(document.querySelector('[data-testid=review-side-0] pre.code .line')),
        rows: [...document.querySelectorAll('[data-testid=review-rubric-rows] tr')].map(box),
        focused: box(document.querySelector('[data-testid=review-rubric-rows] tr.focused')),
      };
    });
    const inView = (b) => b.top >= -1 && b.bottom <= height + 1 && b.left >= 0 && b.right <= width + 1;
    assert.ok(inView(boxes.code), `the code at ${width} px: ${JSON.stringify(boxes.code)}`);
    assert.ok(inView(boxes.focused), `the focused row at ${width} px: ${JSON.stringify(boxes.focused)}`);
    const apart = boxes.code.right <= boxes.focused.left || boxes.code.bottom <= boxes.focused.top;
    assert.ok(apart, `the rubric covers the code: ${JSON.stringify(boxes)}`);
    if (width >= 1000) {
      assert.equal(boxes.rows.length, 11);
      assert.deepEqual(boxes.rows.filter((b) => !inView(b)), [], 'rubric rows off screen');
    }
    assert.ok((await overflow(page)) <= 0, `review at ${width} px is ${await overflow(page)} px too wide`);
    await page.screenshot({ path: path.join(SCREENSHOTS, `review-item-${width}.png`) });
    // Scored by keyboard, then finished: the seed a second reviewer needs, and the merge command.
    await page.focus('[data-testid=review-item]');
    for (const digit of '44331221141') await page.keyboard.press(digit);
    await page.keyboard.press('Enter');
    await page.click('[data-testid=review-finish]');
    await waitFor(page, '[data-testid=review-seed-note]');
    assert.match(await page.innerText('[data-testid=review-seed-note]'), /same plan: rubric "Pairwise developer review", seed 5, models hare-1b and tortoise-7b/);
    assert.equal(await page.innerText('[data-testid=review-merge-command]'), 'wasmeval report demo --reviews review-ada.json review-OTHER.json');
    assert.ok((await overflow(page)) <= 0, `the review's end at ${width} px is ${await overflow(page)} px too wide`);
    await page.screenshot({ path: path.join(SCREENSHOTS, `review-end-${width}.png`), fullPage: true });
    // Leave no session behind for the other tests.
    await page.click('[data-testid=review-new]');
    await waitFor(page, '[data-testid=review-start]');
    assertNoUncaught(page);
    await page.close();
  });
}

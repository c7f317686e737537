// What every browser test does with a page: open the site and wait for the app, wait for an
// element or for the overview to show the command line's numbers (failing with what the page
// shows instead), and check that nothing was thrown.

import assert from 'node:assert/strict';
import { newPage } from './browser.js';
import { readOverview, diffOverview } from './report.js';

/** How long the app may take to show what a step asks for. */
export const TIMEOUT = 30_000;

/** Opens `server.url + query` in `browser` and waits for the app to start. */
export async function open(browser, server, query = '') {
  const page = await newPage(browser.context);
  page.server = server;
  await page.goto(server.url + query);
  await waitFor(page, '[data-testid=app]');
  return page;
}

/** Waits for `selector`; on a timeout, fails with what the page shows instead. */
export async function waitFor(page, selector) {
  try {
    await page.locator(selector).first().waitFor({ timeout: TIMEOUT });
  } catch (error) {
    if (!error.name?.includes('Timeout')) throw error;
    const shown = await page.evaluate(() =>
      ['status', 'error'].map((id) => document.querySelector(`[data-testid=${id}]`)?.innerText ?? '').join(' | '),
    );
    const requests = (page.server?.requests ?? []).map((r) => `${r.method} ${r.path} ${r.status}`).slice(-8);
    assert.fail(
      `no ${selector} after ${TIMEOUT} ms at ${page.url()}; status | error: ${shown}\n  ` +
        [...page.problems, ...requests].join('\n  '),
    );
  }
}

/** Waits until the overview shows `expected` (see diffOverview); fails with every difference. */
export async function waitForOverview(page, expected, what) {
  const want = { rows: expected.rows, overall: expected.overall };
  const predicate = `(${diffOverview})((${readOverview})(), ${JSON.stringify(want)}).length === 0`;
  try {
    await page.waitForFunction(predicate, null, { timeout: TIMEOUT });
  } catch (error) {
    if (!error.name?.includes('Timeout')) throw error;
    const problems = diffOverview(await page.evaluate(readOverview), want);
    assert.fail(
      `${what}: the overview does not show the command line's numbers after ${TIMEOUT} ms:\n  ` +
        [...problems, ...page.problems].join('\n  '),
    );
  }
}

/** Fails when the page threw (a panic in the app shows as an uncaught exception). */
export function assertNoUncaught(page) {
  const uncaught = page.problems.filter((p) => p.startsWith('uncaught'));
  assert.deepEqual(uncaught, [], 'the page threw');
}

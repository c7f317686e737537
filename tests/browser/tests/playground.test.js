// The playground, in headless Chromium against a real `wasmeval serve --demo` on loopback: a
// program typed into the editor (Tab indents) runs against a demo task and shows its verdict,
// for a passing, a failing and an endless program; Cancel; a program with stdin; "Edit and run"
// from a sample's detail judges it as the command line did. Served by a static host instead,
// the view explains what it needs and shows no Run button.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serve, serveWasmeval } from '../lib/server.js';
import { launch } from '../lib/browser.js';
import { open as openPage, waitFor, assertNoUncaught, TIMEOUT } from '../lib/page.js';
import { REPO, runDemo, wasmeval } from '../lib/report.js';

let server; // wasmeval serve --demo
let staticHost; // the same site on a static file server
let site;
let demoResults; // the demo, evaluated here: a clean clone has no out/demo
let browser;

before(async () => {
  demoResults = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-demo-'));
  const demo = runDemo(demoResults);
  assert.equal(demo.status, 0, demo.stderr);
  // 2e9 fuel: an endless loop ends as a timeout in a few seconds.
  server = await serveWasmeval(['--demo', '--results', demoResults, '--jobs', '2', '--fuel', '2000000000']);
  site = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-static-'));
  const run = wasmeval(['report', path.join(REPO, 'tests/fixtures/report'), '--site', site]);
  assert.equal(run.status, 0, run.stderr);
  staticHost = await serve({ '/': site });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  await staticHost?.close();
  if (site) await rm(site, { recursive: true, force: true });
  if (demoResults) await rm(demoResults, { recursive: true, force: true });
});

const TASK = 'demo/2';
const BODY = [
  '    steps = 0',
  '    while n >= 10:',
  '        n = sum(int(d) for d in str(n))',
  '        steps += 1',
  '    return steps',
  '',
].join('\n');

async function openPlayground(host) {
  const page = await openPage(browser, host);
  await waitFor(page, '[data-testid=view-playground]');
  await page.click('[data-testid=view-playground]');
  return page;
}

/** Clicks Run and returns the verdict shown once the run ends. */
async function run(page) {
  await page.click('[data-testid=playground-run]');
  const verdict = page.locator('[data-testid=playground-verdict], [data-testid=playground-error]');
  await verdict.first().waitFor({ timeout: TIMEOUT });
  return (await verdict.first().innerText()).trim();
}

test('a typed program runs against a task: passing, failing and endless programs get their verdicts', async () => {
  const page = await openPlayground(server);
  await waitFor(page, '[data-testid=playground-code]');
  await page.selectOption('[data-testid=playground-task]', TASK);
  const editor = page.locator('[data-testid=playground-code]');
  const prompt = await editor.inputValue();
  assert.match(prompt, /^def digit_sum_steps\(n: int\) -> int:/, 'the task prompt is filled in');
  // Typed at the end of the prompt: Tab indents by four spaces.
  await editor.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Tab');
  await page.keyboard.type('return 0');
  assert.ok((await editor.inputValue()).endsWith('\n    return 0'), await editor.inputValue());
  assert.equal(await run(page), 'wrong_answer');
  await waitFor(page, '[data-testid=playground-result] table[data-testid=cases] tbody tr');

  await editor.fill(prompt + BODY);
  assert.equal(await run(page), 'passed');
  const cases = await page.$$eval('[data-testid=playground-result] table[data-testid=cases] tbody tr', (rows) =>
    rows.map((r) => r.cells[1].innerText.trim()),
  );
  assert.ok(cases.length > 1 && cases.every((v) => v === 'passed'), cases.join(', '));

  await editor.fill(prompt + '    while True:\n        pass\n');
  assert.equal(await run(page), 'timeout');
  assertNoUncaught(page);
  await page.close();
});

test('Cancel abandons a run, and a program with stdin runs on it', async () => {
  const page = await openPlayground(server);
  await waitFor(page, '[data-testid=playground-code]');
  await page.selectOption('[data-testid=playground-task]', '');
  await page.selectOption('[data-testid=playground-language]', 'python');
  const editor = page.locator('[data-testid=playground-code]');
  await editor.fill('while True:\n    pass\n');
  await page.click('[data-testid=playground-run]');
  await page.click('[data-testid=playground-cancel]');
  await waitFor(page, '[data-testid=playground-error]');
  assert.equal(await page.innerText('[data-testid=playground-error]'), 'Cancelled.');

  await editor.fill('print(input()[::-1])\n');
  await page.fill('[data-testid=playground-stdin]', 'stressed\n');
  assert.equal(await run(page), 'Success');
  assert.match(await page.innerText('[data-testid=playground-result]'), /desserts/);
  assertNoUncaught(page);
  await page.close();
});

test('"Edit and run" judges a sample in the playground as the command line did', async () => {
  const page = await openPage(browser, server);
  await waitFor(page, '[data-testid=view-samples]');
  await page.click('[data-testid=view-samples]');
  const first = page.locator('table[data-testid=samples] button').first();
  await first.waitFor({ timeout: TIMEOUT });
  await first.click();
  await waitFor(page, '[data-testid=edit-and-run]');
  const heading = await page.innerText('[data-testid=sample-detail] h2');
  const [, index] = heading.match(/^Sample (\d+) of/);
  const bundle = JSON.parse(await (await fetch(server.url + 'bundle.json')).text());
  const expected = bundle.results.find((r) => r.index === Number(index));
  await page.click('[data-testid=edit-and-run]');
  await waitFor(page, '[data-testid=playground-code]');
  assert.equal(await page.locator('[data-testid=playground-code]').inputValue(), expected.code);
  assert.equal(await page.inputValue('[data-testid=playground-task]'), expected.task_id);
  assert.equal(await run(page), expected.verdict);
  assertNoUncaught(page);
  await page.close();
});

test('on a static host the playground says what it needs and offers nothing dead', async () => {
  const page = await openPlayground(staticHost);
  await waitFor(page, '[data-testid=playground-unavailable]');
  assert.match(await page.innerText('[data-testid=playground-unavailable]'), /wasmeval serve --demo/);
  assert.equal(await page.locator('[data-testid=playground-run]').count(), 0);
  await page.click('[data-testid=view-samples]');
  const first = page.locator('table[data-testid=samples] button').first();
  await first.waitFor({ timeout: TIMEOUT });
  await first.click();
  await waitFor(page, '[data-testid=sample-detail]');
  assert.equal(await page.locator('[data-testid=edit-and-run]').count(), 0);
  assertNoUncaught(page);
  await page.close();
});

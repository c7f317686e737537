// The browser and `wasmeval run` agree (issue 32, item 6): the same samples (ordinary passing and
// failing ones, Python and JavaScript recursion below, at and above their interpreters' limits,
// symbolic and hard links, paths that try to leave /tmp) get the same verdict, message, output and
// fuel to the unit in the site's sandbox worker as in the command line's results.jsonl. Where the
// hosts cannot agree it is said here and in ARCHITECTURE.md ("The browser"): a recursion that
// outgrows both hosts' native stacks before any interpreter limit ends as the same trap, at a
// depth, and so a fuel, of each host's own.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../lib/server.js';
import { launch } from '../lib/browser.js';
import { open as openPage, assertNoUncaught } from '../lib/page.js';
import { REPO, wasmeval } from '../lib/report.js';
import { answerOf, evaluateInBrowser } from '../lib/sandbox.js';

const FIXTURE = path.join(REPO, 'tests/browser/fixtures/parity');
/** `wasmeval run`'s default limits, as the worker reads them (core's `BrowserLimits::RUN_DEFAULTS`). */
const LIMITS = { fuel: 10_000_000_000, memory: 512 << 20, timeout_ms: 30_000, output: 1 << 20, disk: 64 << 20 };

/**
 * The samples: [label, task, program file, depth or section ({N} in the program)]. Depths were
 * measured (ARCHITECTURE.md, "The browser"): CPython raises its own RecursionError at 2,348
 * nested lists in json.dumps, 3,522 in repr, 207 lru_cache calls, 1,000 frames by default; the
 * JavaScript guest has no limit of its own and runs 1,500 and 2,000 frames in both hosts.
 */
const SAMPLES = [
  ['py-pass', 'parity/py', 'ok.py'],
  ['py-fail', 'parity/py', 'no.py'],
  ['py-assert-pass', 'parity/py-add', 'add.py'],
  ['py-assert-fail', 'parity/py-add', 'add_wrong.py'],
  ['js-pass', 'parity/js', 'ok.js'],
  ['js-fail', 'parity/js', 'no.js'],
  ['js-assert-pass', 'parity/js-add', 'add.js'],
  ['js-assert-fail', 'parity/js-add', 'add_wrong.js'],
  ['py-recursion-990', 'parity/py', 'recursion_default_limit.py', 990],
  ['py-recursion-1000', 'parity/py', 'recursion_default_limit.py', 1000],
  ['py-recursion-100000', 'parity/py', 'recursion.py', 100_000],
  ['py-json-2347', 'parity/py', 'json_dumps.py', 2347],
  ['py-json-2348', 'parity/py', 'json_dumps.py', 2348],
  // The case: it passed in the command line and trapped in the browser.
  ['py-json-3000', 'parity/py', 'json_dumps.py', 3000],
  ['py-repr-3521', 'parity/py', 'repr.py', 3521],
  ['py-repr-3522', 'parity/py', 'repr.py', 3522],
  ['py-lru-206', 'parity/py', 'lru_cache.py', 206],
  ['py-lru-207', 'parity/py', 'lru_cache.py', 207],
  ['py-dealloc-3000', 'parity/py', 'dealloc.py', 3000],
  // The case: it passed in the command line and trapped in the browser.
  ['js-recursion-1500', 'parity/js', 'recursion.js', 1500],
  ['js-recursion-2000', 'parity/js', 'recursion.js', 2000],
  ['js-stringify-2000', 'parity/js', 'stringify.js', 2000],
  ['links-0', 'parity/py', 'links.py', 0],
  ['links-1', 'parity/py', 'links.py', 1],
  ['links-2', 'parity/py', 'links.py', 2],
  ['links-3', 'parity/py', 'links.py', 3],
  ['links-4', 'parity/py', 'links.py', 4],
  ['escape', 'parity/py', 'escape.py', 0],
  // Past every interpreter limit: the native stacks end it, at a depth of each host's own
  // (wasmtime's 8 MiB against V8's ~950 KB). Same verdict and message, fuel not compared.
  ['py-dealloc-100000', 'parity/py', 'dealloc.py', 100_000],
  ['js-recursion-20000', 'parity/js', 'recursion.js', 20_000],
];
/** The samples the native stacks end: their fuel is each host's own. */
const NATIVE_STACK = new Set(['py-dealloc-100000', 'js-recursion-20000']);

let work;
let host;
let browser;
let bundle;
let samples;

before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-parity-'));
  const programs = path.join(FIXTURE, 'programs');
  assert.deepEqual(
    (await readdir(programs)).sort(),
    [...new Set(SAMPLES.map(([, , file]) => file))].sort(),
    'every program of the fixture is in SAMPLES, and every one in SAMPLES is in the fixture',
  );
  samples = await Promise.all(
    SAMPLES.map(async ([label, taskId, file, n], index) => {
      const source = await readFile(path.join(programs, file), 'utf8');
      const code = n === undefined ? source : source.replaceAll('{N}', String(n));
      const isCompletion = taskId.endsWith('-add');
      return { index, task_id: taskId, model: label, [isCompletion ? 'completion' : 'solution']: code };
    }),
  );
  const samplesFile = path.join(work, 'samples.jsonl');
  await writeFile(samplesFile, samples.map(({ index, ...s }) => JSON.stringify(s)).join('\n') + '\n');
  const out = path.join(work, 'run');
  const run = wasmeval(['run', '--tasks', path.join(FIXTURE, 'tasks.jsonl'), '--samples', samplesFile, '--out', out, '--fresh']);
  assert.equal(run.status, 0, run.stderr);
  const site = path.join(work, 'site');
  const report = wasmeval(['report', out, '--bundle', path.join(work, 'bundle.json'), '--site', site, '--with-runtimes']);
  assert.equal(report.status, 0, report.stderr);
  bundle = JSON.parse(await readFile(path.join(work, 'bundle.json'), 'utf8'));
  host = await serve({ '/': site });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await host?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

test('the browser gives every sample the verdict, message, output and fuel `wasmeval run` gave it', async () => {
  const tasks = new Map(bundle.tasks.map((t) => [t.id, t]));
  const ran = new Map(bundle.results.map((r) => [r.model, r]));
  const page = await openPage(browser, host);
  const answers = await evaluateInBrowser(
    page,
    samples.map((sample) => ({ task: tasks.get(sample.task_id), sample, limits: LIMITS })),
  );
  const differ = [];
  samples.forEach((sample, i) => {
    const label = sample.model;
    const answer = answerOf(answers[i], label);
    // Without stacks of their own (JavaScript Promise Integration) the worker's ~500 KB stack
    // ends recursions the command line finishes: this suite's Chromium has them.
    assert.equal(answer.own_stacks, true, `${label}: the guest did not run on a stack of its own`);
    const inBrowser = answer.result;
    const expected = ran.get(label);
    assert.ok(expected, `${label}: not in the run's results`);
    const fields = NATIVE_STACK.has(label) ? ['verdict', 'message'] : ['verdict', 'message', 'stdout', 'stderr', 'fuel'];
    for (const field of fields) {
      if (inBrowser[field] !== expected[field]) {
        differ.push(`${label} ${field}: run ${JSON.stringify(expected[field])}, browser ${JSON.stringify(inBrowser[field])}`);
      }
    }
  });
  assertNoUncaught(page);
  await page.close();
  assert.deepEqual(differ, [], 'where the browser differs from `wasmeval run`');
  // What the samples show, so that a change of either host's limits is seen here first.
  const verdict = (label) => ran.get(label).verdict;
  const message = (label) => ran.get(label).message ?? '';
  for (const label of ['py-recursion-990', 'py-recursion-100000', 'py-json-2347', 'py-repr-3521', 'py-lru-206', 'py-dealloc-3000', 'js-recursion-1500', 'js-recursion-2000']) {
    assert.equal(verdict(label), 'passed', `${label}: ${message(label)}`);
  }
  for (const label of ['py-recursion-1000', 'py-json-2348', 'py-json-3000', 'py-repr-3522', 'py-lru-207']) {
    assert.equal(verdict(label), 'runtime_error', label);
    assert.match(ran.get(label).stderr, /RecursionError/, label);
  }
  for (const label of NATIVE_STACK) {
    assert.equal(verdict(label), 'runtime_error', label);
    assert.match(message(label), /call stack exhausted/, label);
  }
  const links = ['links-0', 'links-1', 'links-2', 'links-3', 'links-4', 'escape'].map((l) => ran.get(l).stdout).join('');
  for (const line of [
    'rel read: ok \'hello\'',
    'abs: EPERM',
    'escape read: EPERM',
    'escape dir read: EPERM',
    'chain 40: ok \'end\'',
    'chain 41: ELOOP',
    'hard nlink: ok 2',
    'dirfd link read via fd: EPERM',
    'dotdot open: EPERM',
  ]) {
    assert.ok(links.includes(line), `the links' outcomes lack "${line}"`);
  }
});

// Running samples in the page through the site's sandbox worker (browser-sandbox/worker.js), as
// the Playground does, with waits sized from the work: a request fails (naming what it waited
// for) only when its guest's loading stalls or its run outlasts its fuel at a slow rate.

import assert from 'node:assert/strict';

/**
 * The slowest rate, in fuel per second, at which a guest in the page may run before the test
 * calls it stuck: about 20 times below this machine's usual rate (3e8 to 1e9), so a machine
 * slowed several times by other work still passes, while a run that never ends fails naming its
 * sample instead of hanging the suite.
 */
export const SLOWEST_FUEL_PER_SECOND = 2e7;
/** How long loading a guest (download and compile) may go without progress. */
export const LOADING_STALL_MS = 300_000;

/** How long a run with `limits` may take once its guest is loaded: sized from its fuel. */
export function runAllowanceMs(limits) {
  return Math.max(60_000, (limits.fuel / SLOWEST_FUEL_PER_SECOND) * 1000);
}

/**
 * Evaluates `requests` in the page through the site's worker (two workers, as many runs at once
 * as the machine has cores); the answers in order, each { ok: answer JSON } or { error }. No
 * fixed wall-clock budget: a request fails (with what it was waiting for) only when its guest's
 * loading makes no progress for LOADING_STALL_MS, or its run takes longer than its fuel allows
 * at SLOWEST_FUEL_PER_SECOND; its worker is then replaced.
 */
export async function evaluateInBrowser(page, requests) {
  const allowances = requests.map((request) => runAllowanceMs(request.limits));
  return page.evaluate(async ({ requests, allowances, stallMs }) => {
    const runtimes = new URL('runtimes/', location.href).href;
    const newWorker = () => new Worker('sandbox/worker.js', { type: 'module' });
    const run = (worker, request, allowance) =>
      new Promise((resolve) => {
        const what = `sample ${request.sample.index} (${request.sample.task_id})`;
        let timer;
        const watch = (ms, waitingFor) => {
          clearTimeout(timer);
          timer = setTimeout(() => resolve({ error: `no answer: ${waitingFor}`, stuck: true }), ms);
        };
        watch(stallMs, `loading the guest for ${what} made no progress for ${stallMs / 1000} s`);
        worker.onmessage = (event) => {
          if ('loading' in event.data) {
            watch(stallMs, `loading the guest for ${what} made no progress for ${stallMs / 1000} s`);
          } else if ('started' in event.data) {
            watch(allowance, `${what} ran for more than ${allowance / 1000} s (its fuel at the slowest rate allowed)`);
          } else if ('ok' in event.data || 'error' in event.data) {
            clearTimeout(timer);
            resolve(event.data);
          }
        };
        worker.postMessage(JSON.stringify({ ...request, runtimes }));
      });
    const answers = new Array(requests.length);
    let next = 0;
    await Promise.all(
      [0, 1].map(async () => {
        let worker = newWorker();
        while (next < requests.length) {
          const i = next++;
          answers[i] = await run(worker, requests[i], allowances[i]);
          if (answers[i].stuck) {
            worker.terminate();
            worker = newWorker();
          }
        }
        worker.terminate();
      }),
    );
    return answers;
  }, { requests, allowances, stallMs: LOADING_STALL_MS });
}

/** The worker's answer (result, downloaded, own_stacks), or a failure naming the sample. */
export function answerOf(answer, what) {
  assert.ok(answer.ok, `${what}: the worker failed: ${answer.error}`);
  return JSON.parse(answer.ok);
}

/** The browser's result of each answer, or a failure naming the sample. */
export function resultOf(answer, what) {
  assert.ok(answer.ok, `${what}: the worker failed: ${answer.error}`);
  return JSON.parse(answer.ok).result;
}

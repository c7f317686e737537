// Debian's Chromium (/usr/bin/chromium) driven by playwright-core: no browser download. The flags
// keep Chromium off the (closed) network: without them it floods it with refused connections.

import { chromium } from 'playwright-core';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** How many times slower than this machine's every page runs (see `slowDown`). */
export const CPU_SLOWDOWN = Number(process.env.WASMEVAL_CPU_SLOWDOWN || 1);

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium with a fresh profile; `close()` ends it and removes the profile. */
export async function launch() {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'wasmeval-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A new page that records uncaught exceptions and console errors (`page.problems`), so a test
 * can fail on a panic in the app instead of timing out on a selector.
 */
export async function newPage(context) {
  const page = await context.newPage();
  if (CPU_SLOWDOWN !== 1) await slowDown(page, CPU_SLOWDOWN);
  page.problems = [];
  page.on('pageerror', (error) => page.problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console: ${message.text()}`);
  });
  return page;
}

/**
 * Slows `page`'s CPU `rate` times (1: full speed), as on a busy CI machine: events then arrive
 * faster than the app renders. `WASMEVAL_CPU_SLOWDOWN=10` slows every page a test opens, to
 * look for such races across the suite.
 */
export async function slowDown(page, rate) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

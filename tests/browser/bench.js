// Benchmark (not a test): filter and rescore N synthetic results in headless Chromium through the
// site's own reducer (the `?bench=N` page) and print the figures. The target is under 100 ms per
// change for 100,000 results.
//
//   scripts/build-site && (cd tests/browser && npm run bench -- 100000)
//
// SITE names another built site folder (default web/dist).

import path from 'node:path';
import { serve } from './lib/server.js';
import { launch, newPage } from './lib/browser.js';
import { REPO } from './lib/report.js';

const size = Number(process.argv[2] ?? 100_000);
const site = path.resolve(process.env.SITE ?? path.join(REPO, 'web/dist'));
const server = await serve({ '/': site });
const browser = await launch();
try {
  const page = await newPage(browser.context);
  await page.goto(`${server.url}?bench=${size}`);
  const figures = page.locator('[data-testid=bench]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=bench]')?.textContent.startsWith('{'),
    null,
    { timeout: 300_000 },
  );
  const result = JSON.parse(await figures.innerText());
  console.log(`${result.results} results in Chromium (${site})`);
  console.log(`  parse the bundle and score it:  ${result.parse_and_first_score_ms.toFixed(1)} ms`);
  for (const step of result.filter_and_rescore) {
    const where = step.query === '' ? '(everything)' : step.query;
    console.log(
      `  ${step.ms.toFixed(1).padStart(7)} ms  --where ${where} --by ${step.group_by.join(',')}` +
        `  (${step.samples} samples)`,
    );
  }
  console.log(`  worst filter and rescore: ${result.worst_ms.toFixed(1)} ms (target < 100 ms)`);
  if (page.problems.length > 0) console.error(page.problems.join('\n'));
} finally {
  await browser.close();
  await server.close();
}

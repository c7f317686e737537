// The numbers the site must show, from the command line (`wasmeval report --format json`), and
// the comparison of the overview table's cells with them.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The wasmeval binary: $WASMEVAL_BIN, else target/release/wasmeval. */
export const WASMEVAL = process.env.WASMEVAL_BIN
  ? path.resolve(process.env.WASMEVAL_BIN)
  : path.join(REPO, 'target/release/wasmeval');

/** Runs wasmeval with `args`; returns { status, stdout, stderr }. */
export function wasmeval(args) {
  const run = spawnSync(WASMEVAL, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
  if (run.error) {
    throw new Error(`cannot start ${WASMEVAL} (build it, or set WASMEVAL_BIN): ${run.error.message}`);
  }
  return run;
}

/**
 * The budget of every demo run of these tests: the demo's endless loops end ten times sooner than
 * at the default 1e10, and the browser's runs of the same samples get it too.
 */
export const DEMO_FUEL = 1_000_000_000;

/** `wasmeval run` of the demo into the folder `out` (replaced), with `DEMO_FUEL`. */
export function runDemo(out) {
  return wasmeval([
    'run', '--tasks', path.join(REPO, 'demo/tasks.jsonl'), '--samples', path.join(REPO, 'demo/samples.jsonl'),
    '--out', out, '--fresh', '--fuel', String(DEMO_FUEL),
  ]);
}

function check(run, args) {
  if (run.status !== 0) {
    throw new Error(`wasmeval ${args.join(' ')} exited ${run.status}:\n${run.stderr}`);
  }
  return run.stdout;
}

/**
 * The expected overview of `results` (a bundle or run folder) grouped by `by` (facet names) and
 * selected by `where` (query texts): { headers, rows: [{ group, values: {header: number|null} }],
 * overall }, where `overall` is the row the site may add with data-group="all".
 */
export function expectedOverview(results, { by = [], where = [], ci = false } = {}) {
  const selection = [...by.flatMap((f) => ['--by', f]), ...where.flatMap((q) => ['--where', q])];
  if (ci) selection.push('--ci');
  results = [results].flat(); // one run, or several that `report` combines
  const jsonArgs = ['report', ...results, ...selection, '--format', 'json'];
  const report = JSON.parse(check(wasmeval(jsonArgs), jsonArgs));
  const csvArgs = ['report', ...results, ...selection, '--format', 'csv'];
  const headers = check(wasmeval(csvArgs), csvArgs).split(/\r?\n/)[0].split(',');
  const valueHeaders = headers.filter((h) => metricValue(h, report.overall) !== undefined);
  const row = (group, metrics) => ({
    group,
    values: Object.fromEntries(valueHeaders.map((h) => [h, metricValue(h, metrics)])),
  });
  const rows = by.length === 0
    ? [row('all', report.overall)]
    : report.groups.map((g) => row(g.keys.join(' / '), g.metrics));
  return { headers, valueHeaders, rows, overall: row('all', report.overall), report };
}

/**
 * The value of the table column `header` (core's `Report::table()` headers) in core's `Metrics`
 * JSON: a number, null when undefined, or `undefined` for a column that is not a metric (the
 * group's keys).
 */
export function metricValue(header, metrics) {
  if (['samples', 'tasks', 'passed'].includes(header)) return metrics[header];
  if (/^pass@\d+$/.test(header)) return metrics.pass_at_k[header] ?? null;
  const bound = header.match(/^pass@(\d+)_(low|high)$/);
  if (bound) return metrics.pass_at_k_interval?.[bound[1]]?.[bound[2] === 'low' ? 0 : 1] ?? null;
  if (/^attempts@\d+$/.test(header)) return metrics.attempts ?? null;
  if (['avg_pass_ratio', 'sceneval_pass_rate', 'solvability', 'epam'].includes(header)) {
    return metrics[header] ?? null;
  }
  return undefined;
}

// The two functions below also run inside the page (Playwright serialises them): they must not
// refer to anything outside their own bodies.

/** The overview as the page shows it: [{ group, values: {column: data-value text} }]. */
export function readOverview() {
  const table = document.querySelector('table[data-testid=overview]');
  if (!table) return null;
  return [...table.querySelectorAll('tr[data-group]')].map((tr) => ({
    group: tr.getAttribute('data-group'),
    values: Object.fromEntries(
      [...tr.querySelectorAll('td[data-column][data-value]')].map((td) => [
        td.getAttribute('data-column'),
        td.getAttribute('data-value'),
      ]),
    ),
  }));
}

/**
 * What differs between the rows shown and the expected overview; empty when they agree. Every
 * expected group must be shown once with every metric column equal within 1e-9 (an empty
 * data-value for an undefined metric); the only other row allowed is the overall one ("all").
 */
export function diffOverview(shown, expected) {
  if (shown === null) return ['no table[data-testid=overview]'];
  const problems = [];
  const compare = (row, want) => {
    for (const [column, value] of Object.entries(want.values)) {
      if (!(column in row.values)) {
        problems.push(`${row.group}: no td[data-column="${column}"][data-value]`);
        continue;
      }
      const text = row.values[column];
      if (value === null) {
        if (text !== '') problems.push(`${row.group} ${column}: shows ${JSON.stringify(text)}, expected none ("")`);
      } else if (text === '' || !(Math.abs(Number(text) - value) <= 1e-9)) {
        problems.push(`${row.group} ${column}: shows ${JSON.stringify(text)}, the command line says ${value}`);
      }
    }
  };
  for (const want of expected.rows) {
    const matches = shown.filter((r) => r.group === want.group);
    if (matches.length !== 1) {
      problems.push(`group "${want.group}" is shown ${matches.length} times`);
    } else {
      compare(matches[0], want);
    }
  }
  const groups = new Set(expected.rows.map((r) => r.group));
  for (const row of shown) {
    if (groups.has(row.group)) continue;
    if (row.group === 'all') {
      compare(row, expected.overall);
    } else {
      problems.push(`row "${row.group}" is not a group of the command line's report`);
    }
  }
  return problems;
}

#!/usr/bin/env node
// `npm run bench:lighthouse -- <name>=<url> ...`: Lighthouse as `npm run bench` runs it, on sites served side by side
// (two commits, two server settings), interleaved: each round runs every URL in a shuffled order, in a fresh Chromium,
// so that what else the machine does weighs on every site alike, which runs of one site after the other cannot promise.
// Prints each run and a summary per site, and writes every run to BENCH_OUT as lighthouse-rounds-<date>.json with its
// start and end, to be matched with the servers' request logs. See docs/performance.md.
//
// Environment: BENCH_ROUNDS (20), BENCH_BACK_TO_BACK (1: runs of each URL one after the other in a round; from 2 on, a
// server that keeps the page's fragments for 30 s answers the later ones warm), BENCH_OUT (bench-results), CHROME_PATH.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { repoRoot } = require('@nativegtm/server/deployables');
const { locateTool } = require('../support/systemTools');
const { CHROME_ARGS, launchChrome, lighthouseResult, numbersOf } = require('./lighthouse');
const { median } = require('./report/statistics');
const { fmtMs, fmtNumber } = require('./report/format');
const { textTable } = require('./report/renderText');

/**
 * A simulated LCP this late is a late paint: the routes' own LCP is 0.9-1.2 s simulated (docs/performance.md), and a
 * run whose simulated graph took in the application's scripts lands around 2 s.
 */
const LATE_LCP_MS = 1500;

/**
 * A page first painted this late (observed, not simulated) waited for the boot script's longest wait (2 s after it
 * runs, shared/build/paintFirst/boot.js): its scripts started before its paint, and Lighthouse counts them in its LCP.
 */
const HELD_PAINT_MS = 2000;

/**
 * @param {string} name
 * @param {number} fallback
 */
const envNumber = (name, fallback) => (process.env[name] === undefined ? fallback : Number(process.env[name]));

/**
 * One run's figures: Lighthouse's numbers, and what says why an LCP was late. ttfb: the document's server response
 * time as Lighthouse observed it; renderDelay: the LCP element's render delay (simulated); observedLcp: when the
 * page's LCP was painted in this run, unthrottled.
 * @typedef {import('./lighthouse').LighthouseRun & { site: string, round: number, start: string, end: string,
 *   loadAverage: number, ttfb: number | null, renderDelay: number | null, observedLcp: number | null }} RoundRun
 */

/**
 * The LCP element's render delay (the largest-contentful-paint-element audit's phases), null without it.
 * @param {import('lighthouse').Result} lhr
 */
function renderDelayOf(lhr) {
  const details = /** @type {{ items?: { items?: { phase?: string, timing?: number }[] }[] } | undefined} */ (
    lhr.audits['largest-contentful-paint-element']?.details
  );
  const phases = details?.items?.flatMap((item) => item.items ?? []) ?? [];
  return phases.find((item) => item.phase === 'Render Delay')?.timing ?? null;
}

/**
 * When the page's LCP was painted, unthrottled, in ms from the navigation's start; null without it.
 * @param {import('lighthouse').Result} lhr
 */
function observedLcpOf(lhr) {
  const details = /** @type {{ items?: { observedLargestContentfulPaint?: number }[] } | undefined} */ (
    lhr.audits.metrics?.details
  );
  return details?.items?.[0]?.observedLargestContentfulPaint ?? null;
}

/**
 * `list` in a random order.
 * @template T
 * @param {T[]} list
 * @returns {T[]}
 */
function shuffled(list) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [/** @type {T} */ (copy[j]), /** @type {T} */ (copy[i])];
  }
  return copy;
}

/**
 * @param {{ name: string, url: string }[]} sites
 * @param {{ rounds: number, backToBack: number, chromePath: string }} options
 */
async function runRounds(sites, { rounds, backToBack, chromePath }) {
  /** @type {RoundRun[]} */
  const runs = [];
  for (let round = 0; round < rounds; round += 1) {
    const chrome = await launchChrome(chromePath, CHROME_ARGS);
    try {
      for (const site of shuffled(sites)) {
        for (let repeat = 0; repeat < backToBack; repeat += 1) {
          const start = new Date().toISOString();
          const loadAverage = os.loadavg()[0] ?? Number.NaN;
          const lhr = await lighthouseResult(site.url, chrome.port);
          const run = {
            site: site.name,
            round,
            start,
            end: new Date().toISOString(),
            loadAverage,
            ...numbersOf(lhr),
            ttfb: lhr.audits['server-response-time']?.numericValue ?? null,
            renderDelay: renderDelayOf(lhr),
            observedLcp: observedLcpOf(lhr),
          };
          runs.push(run);
          console.log(
            `round ${round + 1}/${rounds} ${site.name}: ${run.score} (LCP ${fmtMs(run.lcp)}, render delay ` +
              `${fmtMs(run.renderDelay)}, TTFB ${fmtMs(run.ttfb)}, painted at ${fmtMs(run.observedLcp)}; ` +
              `CPU benchmark ${fmtNumber(run.benchmarkIndex)}, load ${loadAverage.toFixed(1)})`,
          );
        }
      }
    } finally {
      chrome.kill();
    }
  }
  return runs;
}

/**
 * A row per site: runs, late LCPs, paints held to the boot script's longest wait, and the medians.
 * @param {{ name: string }[]} sites
 * @param {RoundRun[]} runs
 */
function summaryRows(sites, runs) {
  return sites.map(({ name }) => {
    const of = runs.filter((run) => run.site === name);
    const middle = (/** @type {(run: RoundRun) => number | null | undefined} */ pick) =>
      median(of.map((run) => pick(run) ?? null));
    return [
      name,
      String(of.length),
      String(of.filter((run) => (run.lcp ?? 0) >= LATE_LCP_MS).length),
      String(of.filter((run) => (run.observedLcp ?? 0) >= HELD_PAINT_MS).length),
      fmtNumber(middle((run) => run.score)),
      fmtMs(middle((run) => run.lcp)),
      fmtMs(middle((run) => run.renderDelay)),
      fmtMs(middle((run) => run.ttfb)),
      fmtNumber(middle((run) => run.benchmarkIndex)),
    ];
  });
}

async function main() {
  const sites = process.argv.slice(2).map((argument) => {
    const [name, url] = argument.split(/=(.*)/s);
    if (!name || !url) throw new Error(`Not <name>=<url>: ${argument}`);
    return { name, url };
  });
  if (sites.length === 0) throw new Error('Usage: npm run bench:lighthouse -- <name>=<url> ...');
  const rounds = envNumber('BENCH_ROUNDS', 20);
  const backToBack = envNumber('BENCH_BACK_TO_BACK', 1);
  const runs = await runRounds(sites, { rounds, backToBack, chromePath: locateTool('CHROME_PATH') });
  console.log(
    `\n${textTable(
      [
        '',
        'runs',
        `LCP >= ${LATE_LCP_MS / 1000} s`,
        `painted >= ${HELD_PAINT_MS / 1000} s`,
        'score',
        'LCP',
        'render delay',
        'TTFB',
        'CPU benchmark',
      ],
      summaryRows(sites, runs),
    )}\n(medians; LCP and render delay simulated, "painted" observed)`,
  );
  const out = path.resolve(repoRoot, process.env.BENCH_OUT || 'bench-results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `lighthouse-rounds-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ rounds, backToBack, runs }, null, 2)}\n`);
  console.log(`Written to ${path.relative(process.cwd(), file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

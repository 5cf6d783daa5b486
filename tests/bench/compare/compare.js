#!/usr/bin/env node
// `npm run bench:compare -- --against <ref> [--quick] [--rounds <n>]`: what this checkout costs visitors next to
// another commit, both served at once on this machine and measured in alternating rounds (each round measures both,
// in an order that flips every round), so that what else the machine does weighs on both alike. Each round gives
// its own ratio (this checkout / the other commit); the verdict is the median of those ratios, never a ratio of
// figures taken at different times. docs/performance.md#comparing-two-commits says what it measures and its budgets.
//
// Per commit and round: nginx (its collector beside it) and the built-in server (`npm start`), each with the
// configuration its own commit generates and an empty release store, under LOAD_CONNECTIONS keep-alive connections on
// /employers without cookies (documents/s, p99); Lighthouse (mobile) on every route, each run in a fresh Chromium;
// JavaScript bytes requested before the largest paint; an in-app navigation from / to /employers.
//
// --canary: a canary of jobs at 25 % runs in this checkout's store throughout, and the documents' load is a visitor
// outside it (canary.js): what a running canary costs everyone else, against the other commit.
//
// --quick: a first answer in under 10 minutes (once the other commit is built): 4 s loads, Lighthouse on / and
// /employers, JavaScript bytes and the navigation in the first round only. Exit code 1 when a budget is missed (the
// full run only).
// Environment: COMPARE_PORT_BASE (4700: the other commit on 4700-4704 and 4710-4714, this one on 4720-4724 and
// 4730-4734), WEB_CONCURRENCY (2), BENCH_OUT (bench-results), CHROME_PATH.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { chromium } = require('playwright-core');
const { repoRoot } = require('@nativegtm/server/deployables');
const { readCommandLine, runCommand, wholeNumberOption } = require('@nativegtm/server/commandLine');
const { locateTool } = require('../../support/systemTools');
const { CHROME_ARGS, launchChrome, lighthouseResult, numbersOf } = require('../lighthouse');
const { measureNavigation, measureVisit } = require('../measure');
const { preparedCheckout, preparedCommit } = require('./trees');
const { startBuiltIn, startNginxOf } = require('./servers');
const { comparisonReport } = require('./report');
const { CANARY_SHARE, runningCanary } = require('./canary');

const USAGE = 'npm run bench:compare -- --against <ref> [--quick] [--rounds <n>] [--canary]';
const OPTIONS = /** @type {const} */ ({
  against: { type: 'string' },
  quick: { type: 'boolean' },
  canary: { type: 'boolean' },
  rounds: { type: 'string' },
});

/** The load of the documents' figures: as many connections as a busy CDN keeps open to one origin. */
const LOAD_CONNECTIONS = 100;
const LOAD_PATH = '/employers';
const ROUTES = [
  { path: '/', heading: 'Land high-paying AI-native GTM jobs' },
  { path: '/employers', heading: 'Hire Vetted AI-Native GTM Talent' },
  { path: '/featured-jobs', heading: 'Featured Jobs' },
  { path: '/coming-soon', heading: 'NativeGTM is Coming Soon' },
];

/** The in-app navigation timed: the new page painted after a click on the main menu's link. */
const NAVIGATION = {
  linkName: 'Employers',
  heading: 'Hire Vetted AI-Native GTM Talent',
  startHeading: 'Land high-paying AI-native GTM jobs',
};

/** @typedef {import('./servers').Served} Served */
/** @typedef {import('./trees').Tree} Tree */
/**
 * One measurement of one commit in one round.
 * @typedef {{ round: number, commit: string, metric: string, value: number | null }} Sample
 */

/** @param {string} line */
const log = (line) => console.log(line);

/**
 * autocannon's load on `url`, from a process of its own (tests/bench/load.js cannon), so that the client shares no
 * event loop with this one.
 * @param {string} url
 * @param {number} ms
 * @param {string | undefined} cookie every request's Cookie header
 * @returns {Promise<import('../load').CannonResult>}
 */
function cannon(url, ms, cookie) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(__dirname, '..', 'load.js'), 'cannon', String(LOAD_CONNECTIONS), String(ms), url],
      { stdio: ['ignore', 'pipe', 'inherit'], env: cookie ? { ...process.env, LOAD_COOKIE: cookie } : process.env },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load.js exited ${code}`))));
  });
}

/**
 * @param {{ against: Tree, current: Tree }} trees
 * @param {number} workers
 * @param {number} portBase
 */
async function startAll({ against, current }, workers, portBase) {
  /** @type {Served[]} */
  const served = [];
  const stores = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-compare-stores-'));
  /** @param {Tree} tree its release store, which its two servers share */
  const storeOf = (tree) => {
    const store = path.join(stores, tree.sha);
    fs.mkdirSync(store, { recursive: true });
    return store;
  };
  const stop = async () => {
    await Promise.all(served.map((server) => server.stop()));
    fs.rmSync(stores, { recursive: true, force: true });
  };
  try {
    for (const [index, tree] of [against, current].entries()) {
      const base = portBase + index * 20;
      const store = storeOf(tree);
      served.push(await startNginxOf(tree, { base, store }));
      served.push(await startBuiltIn(tree, { base: base + 10, metricsPort: base + 19, workers, store }));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { served, store: storeOf(current), stop };
}

/**
 * @param {{ rounds: number, quick: boolean, served: Served[], order: (round: number) => Tree[],
 *   canary?: { outside: string, inside: string } }} plan canary: the Cookie headers of visitors outside a running
 *   canary (the load judged) and in it (measured too)
 * @returns {Promise<Sample[]>}
 */
async function measureRounds({ rounds, quick, served, order, canary }) {
  const chromePath = locateTool('CHROME_PATH');
  const loadMs = quick ? 4000 : 8000;
  const lighthouseRoutes = quick ? ROUTES.slice(0, 2) : ROUTES;
  /** @type {Sample[]} */
  const samples = [];
  /** @param {Tree} tree @param {Served['kind']} kind */
  const serverOf = (tree, kind) =>
    /** @type {Served} */ (served.find((server) => server.tree === tree && server.kind === kind));
  for (let round = 0; round < rounds; round += 1) {
    const trees = order(round);
    log(`Round ${round + 1}/${rounds}: ${trees.map((tree) => tree.label).join(', then ')}`);
    const visitors = [
      { cookie: canary?.outside, suffix: '' },
      ...(canary ? [{ cookie: canary.inside, suffix: ' (canary visitor)' }] : []),
    ];
    for (const kind of /** @type {const} */ (['nginx', 'built-in'])) {
      for (const { cookie, suffix } of visitors) {
        for (const tree of trees) {
          const result = await cannon(`${serverOf(tree, kind).origin}${LOAD_PATH}`, loadMs, cookie);
          const failed = result.errors + result.non2xx;
          const what = `${kind}${suffix} ${tree.label}`;
          log(`  ${what}: ${Math.round(result.requestsPerSecond)} documents/s, p99 ${result.p99} ms`);
          if (failed) log(`  ${what}: ${failed} errors or non-2xx answers`);
          samples.push(
            { round, commit: tree.label, metric: `${kind} documents/s${suffix}`, value: result.requestsPerSecond },
            { round, commit: tree.label, metric: `${kind} p99 ms${suffix}`, value: result.p99 },
          );
        }
      }
    }
    const chrome = await launchChrome(chromePath, CHROME_ARGS);
    try {
      for (const route of lighthouseRoutes) {
        for (const tree of trees) {
          const numbers = numbersOf(
            await lighthouseResult(`${serverOf(tree, 'built-in').origin}${route.path}`, chrome.port),
          );
          log(`  Lighthouse ${route.path} ${tree.label}: ${numbers.score}, TBT ${Math.round(numbers.tbt ?? NaN)} ms`);
          samples.push(
            { round, commit: tree.label, metric: `Lighthouse ${route.path}`, value: numbers.score },
            { round, commit: tree.label, metric: `TBT ${route.path} ms`, value: numbers.tbt },
          );
        }
      }
    } finally {
      chrome.kill();
    }
    if (quick && round > 0) continue;
    const browser = await chromium.launch({ executablePath: chromePath, args: CHROME_ARGS });
    try {
      for (const route of ROUTES) {
        for (const tree of trees) {
          const url = `${serverOf(tree, 'built-in').origin}${route.path}`;
          const visit = await measureVisit(browser, { url, heading: route.heading, distFor: () => undefined });
          samples.push({
            round,
            commit: tree.label,
            metric: `JS before LCP ${route.path} bytes`,
            value: visit.jsBeforeLcpBytes,
          });
        }
      }
      for (const tree of trees) {
        const ms = await measureNavigation(browser, {
          url: `${serverOf(tree, 'built-in').origin}/`,
          ...NAVIGATION,
        });
        samples.push({ round, commit: tree.label, metric: 'navigation / → /employers ms', value: ms });
      }
    } finally {
      await browser.close();
    }
  }
  return samples;
}

async function main() {
  const { values } = readCommandLine(process.argv.slice(2), { usage: USAGE, options: OPTIONS });
  if (!values.against) throw new Error(`--against is required.\n${USAGE}`);
  const quick = values.quick ?? false;
  const rounds = wholeNumberOption(values.rounds, '--rounds', { min: 2 }) ?? 6;
  const workers = Number(process.env.WEB_CONCURRENCY || 2);
  const portBase = Number(process.env.COMPARE_PORT_BASE || 4700);
  const against = preparedCommit(values.against, log);
  const current = preparedCheckout(log);
  const started = Date.now();
  const { served, store, stop } = await startAll({ against, current }, workers, portBase);
  let samples;
  try {
    const canary = values.canary ? await runningCanary(store, log) : undefined;
    try {
      samples = await measureRounds({
        rounds,
        quick,
        served,
        order: (round) => (round % 2 ? [current, against] : [against, current]),
        canary,
      });
    } finally {
      await canary?.stop();
    }
  } finally {
    await stop();
  }
  const report = comparisonReport(samples, {
    against: against.label,
    current: current.label,
    quick,
    condition: values.canary
      ? `a canary at ${CANARY_SHARE} % runs in ${current.label}; the load is a visitor outside it, then one in it ` +
        '(not judged: a personal document)'
      : undefined,
  });
  console.log(`\n${report.text}`);
  const out = path.resolve(repoRoot, process.env.BENCH_OUT || 'bench-results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `compare-${against.label}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const minutes = (Date.now() - started) / 60_000;
  fs.writeFileSync(
    file,
    `${JSON.stringify({ against, current, quick, rounds, workers, minutes, samples, verdicts: report.verdicts }, null, 2)}\n`,
  );
  console.log(`Measured in ${minutes.toFixed(1)} minutes; written to ${path.relative(process.cwd(), file)}`);
  if (!quick && report.verdicts.some((verdict) => verdict.ok === false)) process.exitCode = 1;
}

if (require.main === module) runCommand(USAGE, main);

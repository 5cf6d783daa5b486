#!/usr/bin/env node
// `npm run bench:loop`: a page team's own loop, timed as the team runs it (CONTRIBUTING.md, "A day on the jobs team").
//
// 1. A saved change inside the running site: `npm run dev -- jobs` on a scratch copy of jobs-mfe (the checkout is not
//    edited), overriding the jobs page on the built-in server and on nginx; LOOP_BENCH_SAVES (5) saves a server, each
//    timed from the file's write until the overriding Chromium shows the new text. Budget: every one within 2 s.
// 2. `npm run check -- jobs`: cold (an empty Turborepo cache: TURBO_CACHE_DIR in a scratch folder), warm after a
//    one-line change to jobs-mfe (a comment added to src/meta.ts, taken out again after), and warm with nothing
//    changed. Budget: the warm change within 5 minutes. LOOP_BENCH_CHECK=0 skips this part.
//
// Prints a table, exits 1 when a budget is missed. Ports: LOOP_BENCH_PORT_BASE (4720: the built-in server on
// 4720-4724, nginx on 4725-4729, the dev server on 4730).
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { chromium } = require('playwright-core');
const { overridePath } = require('@nativegtm/contract/overrides');
const { portsFrom } = require('@nativegtm/contract/ports');
const { deployables, repoRoot } = require('@nativegtm/server/deployables');
const { buildIfNeeded } = require('@nativegtm/tools/buildIfNeeded');
const { startSite } = require('@nativegtm/server/startSite');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { startNginx } = require('../support/nginxServer');
const { locateTool } = require('../support/systemTools');
const { median } = require('../soak/memory');
const { textTable } = require('./report/renderText');

const saves = Number(process.env.LOOP_BENCH_SAVES || 5);
const measureCheck = process.env.LOOP_BENCH_CHECK !== '0';
const portBase = Number(process.env.LOOP_BENCH_PORT_BASE || 4720);
/** The budgets: a saved change on screen, a warm check of a one-line change. */
const SAVE_BUDGET_MS = 2000;
const CHECK_BUDGET_MS = 5 * 60_000;
const jobs = /** @type {import('@nativegtm/server/deployables').Deployable} */ (
  deployables.find((d) => d.remote === 'jobs')
);
const SUBTITLE = 'Discover elite opportunities from top companies.';

/** @param {number} ms */
const once = (ms) => `${(ms / 1000).toFixed(1)} s`;
/** @param {number[]} values */
const seconds = (values) => `${(median(values) / 1000).toFixed(2)} / ${(Math.max(...values) / 1000).toFixed(2)} s`;

/**
 * The built-in site and nginx on one scratch store, a copy of jobs-mfe, and its dev server overriding both; each
 * added to `running` as soon as it runs, for the caller to stop whatever happens.
 * @param {string} scratch
 * @param {{ stop: () => Promise<unknown> }[]} running
 */
async function startLoop(scratch, running) {
  const sitePorts = portsFrom(portBase);
  const nginxPorts = portsFrom(portBase + 5);
  const devPort = portBase + 10;
  const store = path.join(scratch, 'releases');
  /** @param {Record<string, number>} ports @param {string} name */
  const remotesFile = (ports, name) => {
    const file = path.join(scratch, name);
    const shipped = shippedRemotes({
      host: '127.0.0.1',
      portOf: (page) => /** @type {number} */ (ports[page.package]),
    });
    fs.writeFileSync(file, JSON.stringify(shipped));
    return file;
  };
  running.push(
    await startSite(deployables, {
      ports: sitePorts,
      remotesFile: remotesFile(sitePorts, 's.json'),
      releasesDir: store,
    }),
  );
  running.push(
    await startNginx({ ports: nginxPorts, remotesFile: remotesFile(nginxPorts, 'n.json'), releasesDir: store }),
  );

  // The copy sits inside the repository, where it resolves the workspace's packages as jobs-mfe does.
  const copy = path.join(fs.mkdtempSync(path.join(repoRoot, 'tests/.artifacts/loop-')), jobs.name);
  fs.mkdirSync(copy);
  for (const entry of ['src', 'package.json', 'webpack.config.js']) {
    fs.cpSync(path.join(jobs.dir, entry), path.join(copy, entry), { recursive: true });
  }
  const site = `http://127.0.0.1:${sitePorts.shell}`;
  const dev = spawn(
    process.execPath,
    ['shared/tools/commands/dev.js', 'jobs', '--against', site, '--port', String(devPort), '--package-dir', copy],
    { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  dev.stdout.on('data', (chunk) => (output += chunk));
  dev.stderr.on('data', (chunk) => (output += chunk));
  running.push({
    async stop() {
      if (dev.pid && dev.exitCode === null) {
        const exited = new Promise((resolve) => dev.once('exit', resolve));
        process.kill(-dev.pid, 'SIGTERM');
        await exited;
      }
      fs.rmSync(path.dirname(copy), { recursive: true, force: true });
    },
  });
  const devOrigin = `http://localhost:${devPort}`;
  const deadline = Date.now() + 180_000;
  while (!output.includes(`Open ${site}${overridePath('jobs', devOrigin)}`)) {
    if (dev.exitCode !== null || Date.now() > deadline) throw new Error(`npm run dev did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    pageSource: path.join(copy, 'src/FeaturedJobsPage.tsx'),
    starts: [
      { name: 'built-in', url: `${site}${overridePath('jobs', devOrigin)}` },
      { name: 'nginx', url: `http://127.0.0.1:${nginxPorts.shell}${overridePath('jobs', devOrigin)}` },
    ],
  };
}

/**
 * Saves a change to the copy `saves` times on each server; the milliseconds from each write to the text on screen.
 * @param {Awaited<ReturnType<typeof startLoop>>} loop
 */
async function savedChanges(loop) {
  const browser = await chromium.launch({ executablePath: locateTool('CHROME_PATH') });
  const original = fs.readFileSync(loop.pageSource, 'utf8');
  /** @type {Record<string, number[]>} */
  const times = {};
  try {
    for (const { name, url } of loop.starts) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url);
      await page.getByText(SUBTITLE).waitFor({ timeout: 30_000 });
      times[name] = [];
      for (let save = 1; save <= saves; save += 1) {
        const text = `Save ${save} on ${name}: ${SUBTITLE}`;
        // The dev server's watcher must see a settled file: one save at a time, after the last one shows.
        const written = performance.now();
        fs.writeFileSync(loop.pageSource, original.replace(SUBTITLE, text));
        await page.getByText(text).waitFor({ timeout: 30_000 });
        times[name].push(performance.now() - written);
      }
      await context.close();
    }
  } finally {
    fs.writeFileSync(loop.pageSource, original);
    await browser.close();
  }
  return times;
}

/**
 * One `npm run check -- jobs`: its time, or a failure.
 * @param {Record<string, string>} env
 */
function timedCheck(env) {
  const started = performance.now();
  const result = spawnSync('npm', ['run', 'check', '--', 'jobs'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`npm run check -- jobs failed:\n${result.stderr}`);
  return performance.now() - started;
}

/**
 * The check cold, warm after a one-line change, and warm with nothing changed.
 * @param {string} scratch
 */
function checkTimes(scratch) {
  const cold = timedCheck({ TURBO_CACHE_DIR: path.join(scratch, 'turbo-cache') });
  // The repository's own cache, filled for the checkout as it is: what "warm" means.
  timedCheck({});
  const meta = path.join(jobs.dir, 'src/meta.ts');
  const original = fs.readFileSync(meta, 'utf8');
  const restore = () => fs.writeFileSync(meta, original);
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.once(signal, () => {
      restore();
      process.exit(130);
    });
  }
  let changed;
  try {
    fs.writeFileSync(meta, `${original}// A one-line change (npm run bench:loop).\n`);
    changed = timedCheck({});
  } finally {
    restore();
  }
  const unchanged = timedCheck({});
  return { cold, changed, unchanged };
}

async function main() {
  buildIfNeeded(deployables, { log: (line) => console.error(line) });
  fs.mkdirSync(path.join(repoRoot, 'tests/.artifacts'), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(repoRoot, 'tests/.artifacts/loop-bench-'));
  // nginx's workers read the store as another user.
  fs.chmodSync(scratch, 0o755);
  /** @type {string[][]} */
  const rows = [];
  let missed = 0;
  /** @type {{ stop: () => Promise<unknown> }[]} */
  const running = [];
  try {
    try {
      const loop = await startLoop(scratch, running);
      const times = await savedChanges(loop);
      for (const [name, values] of Object.entries(times)) {
        const met = Math.max(...values) <= SAVE_BUDGET_MS;
        if (!met) missed += 1;
        rows.push([
          `a saved change, shown (${name}, ${values.length} saves)`,
          seconds(values),
          '≤ 2 s each',
          met ? 'met' : 'MISSED',
        ]);
      }
    } finally {
      for (const server of running.reverse()) await server.stop();
    }
    if (measureCheck) {
      const { cold, changed, unchanged } = checkTimes(scratch);
      const met = changed <= CHECK_BUDGET_MS;
      if (!met) missed += 1;
      rows.push(['npm run check -- jobs, cold (empty cache)', once(cold), '', '']);
      rows.push(['npm run check -- jobs, warm, one-line change', once(changed), '< 5 min', met ? 'met' : 'MISSED']);
      rows.push(['npm run check -- jobs, warm, nothing changed', once(unchanged), '', '']);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log("\nA team's loop (saves: median / maximum of each server's; checks: one run each):\n");
  console.log(textTable(['', 'time', 'budget', ''], rows));
  console.log('\nshown: from the write of the file until the overriding browser shows the new text (the dev server');
  console.log("rebuilds, its live reload reloads the page, the shell loads the remote from it). check: the command's");
  console.log('whole run, npm included, with its page check in Chromium.');
  if (missed > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

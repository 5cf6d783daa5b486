#!/usr/bin/env node
// `npm run bench:releases`: how long a promote (with and without the gate) and a rollback take, as a team runs them
// (`npm run promote`, `npm run rollback`), against the built-in server and nginx sharing one release store. For each:
// the command's own time, and the time from its start until a new document on each server shows the change. Ten
// of each (RELEASE_BENCH_RUNS); prints the median and the maximum. Then what a running canary costs the visitors
// outside it: the jobs page's documents a second for a visitor outside (their browser sends an outside bucket), on
// each server, without a canary and with one at 25 %, in alternating rounds (RELEASE_BENCH_CANARY_ROUNDS, 6, of
// RELEASE_BENCH_CANARY_MS, 4000 ms, each), as the median of the rounds' ratios, which must stay at 0.95 or above
// (exit 1 otherwise). See docs/releasing.md#measured.
//
// Ports: RELEASE_BENCH_PORT_BASE (4700: the built-in server on 4700-4704, nginx on 4705-4709).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { portsFrom } = require('@nativegtm/contract/ports');
const { pages } = require('@nativegtm/contract/pages');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { deployables } = require('@nativegtm/server/deployables');
const { buildIfNeeded } = require('@nativegtm/tools/buildIfNeeded');
const { startSite } = require('@nativegtm/server/startSite');
const { buildRemote } = require('../support/buildRemote');
const { npmRun } = require('../support/releaseCommands');
const { startNginx } = require('../support/nginxServer');
const { spawn } = require('node:child_process');
const { BUCKET_COOKIE, BUCKETS, sideOf } = require('@nativegtm/contract/canaryBuckets');
const { readCanary } = require('@nativegtm/server/releases/canaryInStore');
const { storeLayout } = require('@nativegtm/server/releases/storeLayout');
const { repoRoot } = require('@nativegtm/server/deployables');
const { median } = require('../soak/memory');
const { textTable } = require('./report/renderText');
const { probe } = require('./probe');

const runs = Number(process.env.RELEASE_BENCH_RUNS || 10);
const canaryRounds = Number(process.env.RELEASE_BENCH_CANARY_ROUNDS || 6);
const canaryLoadMs = Number(process.env.RELEASE_BENCH_CANARY_MS || 4000);
/** Concurrent visitors of the canary's cost: enough to keep either server busy on two cores. */
const CANARY_CONNECTIONS = 50;
/** The least share of its documents a second a server keeps for visitors outside a running canary. */
const CANARY_COST_BUDGET = 0.95;
const portBase = Number(process.env.RELEASE_BENCH_PORT_BASE || 4700);
const jobs = /** @type {import('@nativegtm/server/deployables').Deployable} */ (
  deployables.find((d) => d.remote === 'jobs')
);
const route = /** @type {{ route: string }} */ (pages.find((page) => page.remote === 'jobs')).route;

/**
 * Polls a server's jobs document every 10 ms until it carries `build`; resolves with the time that happened.
 * @param {number} port
 * @param {string} build
 */
async function whenShown(port, build) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const body = await (await fetch(`http://127.0.0.1:${port}${route}`)).text();
    if (body.includes(`data-remote="jobs" data-build="${build}"`)) return performance.now();
    if (Date.now() > deadline) throw new Error(`port ${port} never showed build ${build}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Runs the command and measures it: its own time, and until each server's documents show `build`.
 * @param {() => Promise<import('../support/releaseCommands').CommandResult>} command
 * @param {string} build
 * @param {number[]} shellPorts
 */
async function measure(command, build, shellPorts) {
  const started = performance.now();
  const shown = Promise.all(shellPorts.map((port) => whenShown(port, build)));
  const { status, stderr } = await command();
  const ended = performance.now();
  if (status !== 0) throw new Error(`the command exited ${status}: ${stderr.trim()}`);
  return { command: ended - started, shown: (await shown).map((at) => at - started) };
}

/**
 * What a running canary at 25 % costs documents outside it, on each server: alternating rounds without and with it.
 * @param {{ name: string, port: number }[]} servers
 * @param {Record<string, string>} env
 * @param {string} id the release the canary runs
 */
async function canaryCost(servers, env, id) {
  const layout = storeLayout(/** @type {string} */ (env.RELEASES_DIR), 'jobs');
  const outside = [...Array(BUCKETS).keys()].find((bucket) => sideOf(bucket, 'jobs', 25) === 'outside');
  /** @type {Record<string, { without: number[], with: number[] }>} */
  const samples = Object.fromEntries(servers.map(({ name }) => [name, { without: [], with: [] }]));
  /** @type {Record<string, number>} requests that failed or did not answer 200, over all rounds */
  const failures = {};
  /** @param {'without' | 'with'} condition */
  const load = async (condition) => {
    // The servers take turns going first, as the conditions do.
    const done = samples[servers[0]?.name ?? '']?.[condition].length ?? 0;
    const order = done % 2 ? [...servers].reverse() : servers;
    for (const { name, port } of order) {
      const result = /** @type {import('./load').CannonResult} */ (
        await probe(['cannon', String(CANARY_CONNECTIONS), String(canaryLoadMs), `http://127.0.0.1:${port}${route}`], {
          LOAD_COOKIE: `${BUCKET_COOKIE}=${outside}`,
        })
      );
      failures[name] = (failures[name] ?? 0) + result.errors + result.non2xx;
      samples[name]?.[condition].push(result.requestsPerSecond);
    }
  };
  const withCanary = async () => {
    const command = spawn(
      process.execPath,
      ['shared/tools/commands/canary.js', 'jobs', id, '--steps', '25,100', '--step-time', '60m', '--skip-gate'],
      { cwd: repoRoot, env: { ...process.env, ...env }, stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => command.once('exit', resolve));
    while (readCanary(layout).canary?.share !== 25) await new Promise((resolve) => setTimeout(resolve, 50));
    try {
      await load('with');
    } finally {
      await npmRun('canary', ['jobs', '--abort'], env);
      await exited;
    }
  };
  for (let round = 0; round < canaryRounds; round += 1) {
    console.error(`canary cost: round ${round + 1} of ${canaryRounds}`);
    // Each order half the time, so that a machine warming up or slowing down favours neither.
    if (round % 2 === 0) {
      await load('without');
      await withCanary();
    } else {
      await withCanary();
      await load('without');
    }
  }
  return servers.map(({ name }) => {
    const measured = /** @type {{ without: number[], with: number[] }} */ (samples[name]);
    // Each round's two loads are a minute apart at most: the median of the rounds' own ratios leaves out how the
    // machine's speed drifts over the run, which the ratio of the two medians would not.
    const ratio = median(measured.with.map((value, round) => value / (measured.without[round] ?? NaN)));
    return {
      name,
      ratio,
      row: [
        name,
        median(measured.without).toFixed(0),
        median(measured.with).toFixed(0),
        ratio.toFixed(3),
        String(failures[name] ?? 0),
        `>= ${CANARY_COST_BUDGET}`,
        ratio >= CANARY_COST_BUDGET ? 'ok' : 'OVER',
      ],
    };
  });
}

async function main() {
  buildIfNeeded(deployables, { log: (line) => console.error(line) });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-release-bench-'));
  fs.chmodSync(scratch, 0o755);
  const env = { RELEASES_DIR: path.join(scratch, 'releases') };
  const sitePorts = portsFrom(portBase);
  const nginxPorts = portsFrom(portBase + 5);
  /** @type {{ stop: () => Promise<unknown> }[]} */
  const running = [];
  try {
    console.error('Building a second release of the jobs page…');
    await buildRemote({ packageDir: jobs.dir, name: 'jobs', outputPath: path.join(scratch, 'b') });
    /** @type {Record<'a' | 'b', { dir: string, id: string, build: string }>} */
    const releases = {
      a: { dir: path.join(jobs.dir, 'dist'), id: '', build: '' },
      b: { dir: path.join(scratch, 'b'), id: '', build: '' },
    };
    for (const release of Object.values(releases)) {
      const published = await npmRun('release', ['jobs', '--from', release.dir], env);
      if (published.status !== 0) throw new Error(`npm run release exited ${published.status}: ${published.stderr}`);
      release.id = published.lastLine;
      release.build = JSON.parse(fs.readFileSync(path.join(release.dir, 'ssr/manifest.json'), 'utf8')).buildId;
    }
    /** @param {Record<string, number>} ports @param {string} name */
    const remotesFile = (ports, name) => {
      const file = path.join(scratch, name);
      const portOf = (/** @type {{ package: string }} */ page) => ports[page.package] ?? 0;
      fs.writeFileSync(file, JSON.stringify(shippedRemotes({ host: '127.0.0.1', portOf })));
      return file;
    };
    running.push(
      await startSite(deployables, {
        ports: sitePorts,
        remotesFile: remotesFile(sitePorts, 'site.json'),
        releasesDir: env.RELEASES_DIR,
      }),
    );
    running.push(
      await startNginx({
        ports: nginxPorts,
        remotesFile: remotesFile(nginxPorts, 'nginx.json'),
        releasesDir: env.RELEASES_DIR,
      }),
    );
    const shells = [/** @type {number} */ (sitePorts.shell), /** @type {number} */ (nginxPorts.shell)];
    /** @param {'a' | 'b'} name @param {string[]} flags */
    const promote =
      (name, flags = []) =>
      () =>
        npmRun('promote', ['jobs', releases[name].id, ...flags], env);
    await measure(promote('a', ['--skip-gate']), releases.a.build, shells);

    /** @type {Record<string, { command: number, shown: number[] }[]>} */
    const samples = { 'promote (gate)': [], 'promote --skip-gate': [], rollback: [] };
    for (let run = 0; run < runs; run += 1) {
      console.error(`run ${run + 1} of ${runs}`);
      // a → b with the gate, back to a without it; then a → b without it and rollback to a.
      samples['promote (gate)']?.push(await measure(promote('b'), releases.b.build, shells));
      await measure(promote('a', ['--skip-gate']), releases.a.build, shells);
      samples['promote --skip-gate']?.push(await measure(promote('b', ['--skip-gate']), releases.b.build, shells));
      samples.rollback?.push(await measure(() => npmRun('rollback', ['jobs'], env), releases.a.build, shells));
    }
    /** @param {number[]} values */
    const fmt = (values) => `${(median(values) / 1000).toFixed(2)} / ${(Math.max(...values) / 1000).toFixed(2)} s`;
    /** @param {{ command: number, shown: number[] }[]} measured @param {number} server */
    const afterExit = (measured, server) =>
      fmt(measured.map((sample) => (sample.shown[server] ?? NaN) - sample.command));
    const rows = Object.entries(samples).map(([name, measured]) => [
      name,
      fmt(measured.map((sample) => sample.command)),
      fmt(measured.map((sample) => sample.shown[0] ?? NaN)),
      fmt(measured.map((sample) => sample.shown[1] ?? NaN)),
      afterExit(measured, 0),
      afterExit(measured, 1),
    ]);
    console.log(`\nRelease commands, ${runs} runs each (median / maximum):\n`);
    const header = ['', 'command', 'shown: built-in', 'shown: nginx', 'after exit: built-in', 'after exit: nginx'];
    console.log(textTable(header, rows));
    console.log('\ncommand: from its start to its exit (npm run included); shown: from its start until a new document');
    console.log(
      "of the page on that server carries the release's HTML; after exit: the same, from the command's exit.",
    );

    const costs = await canaryCost(
      [
        { name: 'built-in', port: shells[0] ?? 0 },
        { name: 'nginx', port: shells[1] ?? 0 },
      ],
      env,
      releases.b.id,
    );
    console.log(
      `\nA running canary's cost to visitors outside it: the jobs page's documents/s, ${CANARY_CONNECTIONS} connections, ` +
        `${canaryRounds} rounds of ${canaryLoadMs / 1000} s each; ratio: the median of the rounds' ratios:\n`,
    );
    console.log(
      textTable(
        ['server', 'no canary', 'canary at 25 %', 'ratio', 'failed', 'budget', ''],
        costs.map((cost) => cost.row),
      ),
    );
    console.log('\nThe visitor sends a bucket outside the canary: the most a request outside it can cost a server.');
    console.log('failed: requests that got an error or no 200 answer, over every round (autocannon counts one a time');
    console.log('nginx closes a kept-alive connection after its 1,000th request while a request is on its way).');
    if (costs.some((cost) => cost.ratio < CANARY_COST_BUDGET)) process.exitCode = 1;
  } finally {
    for (const server of running.reverse()) await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

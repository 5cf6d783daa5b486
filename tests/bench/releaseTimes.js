#!/usr/bin/env node
// `npm run bench:releases`: how long a promote (with and without the gate) and a rollback take, as a team runs them
// (`npm run promote`, `npm run rollback`), against the built-in server and nginx sharing one release store. For each:
// the command's own time, and the time from its start until a new document on each server shows the change. Ten
// of each (RELEASE_BENCH_RUNS); prints the median and the maximum. See docs/performance.md#releases. (What a running
// canary costs the visitors outside it is judged against an earlier commit: `npm run bench:compare -- --canary`.)
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
const { median } = require('../soak/memory');
const { textTable } = require('./report/renderText');

const runs = Number(process.env.RELEASE_BENCH_RUNS || 10);
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
  } finally {
    for (const server of running.reverse()) await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

#!/usr/bin/env node
// `npm run bench:gate [-- --runs <n>]`: the release gate's verdicts on a machine whose cores are busy. Two CPU spinner
// processes and a webpack build of the employers remote in a loop (into a scratch folder) run throughout; meanwhile
// the gate (as `promote` runs it, gateFor) judges three releases of the jobs page in turn, `--runs` times each (20):
// the checkout's build (good), a copy of it without its server-rendered HTML (must fail), and a page that throws in
// the browser (tests/fixtures/throwing-page: must fail). Prints, per release, how many runs passed, failed and could
// not judge, and the time of each verdict (median / maximum), then why each "could not judge" could not. Exits 1 when
// a verdict was wrong (the good release failed, a broken one passed): the gate judged the machine. See
// docs/performance.md#the-gate-on-a-busy-machine.
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fragmentPaths } = require('@nativegtm/contract/fragments');
const { readCommandLine, Undecided, wholeNumberOption } = require('@nativegtm/server/commandLine');
const { deployables, repoRoot } = require('@nativegtm/server/deployables');
const { buildIfNeeded } = require('@nativegtm/tools/buildIfNeeded');
const { gateFor } = require('@nativegtm/tools/releases/gateFor');
const { buildRemote } = require('../support/buildRemote');
const { locateTool } = require('../support/systemTools');
const { median } = require('../soak/memory');
const { textTable } = require('./report/renderText');

const USAGE = 'npm run bench:gate -- [--runs <n>]';
/** The mode this file runs in as the load's webpack child: builds the remote into the folder, again and again. */
const BUILD_LOOP = '--build-loop';
/** How long the load runs before the first gate: the build loop past its start-up, compiling. */
const LOAD_HEAD_START_MS = 5000;
const VERDICTS = /** @type {const} */ (['passed', 'failed', 'could not judge']);

/** @typedef {(typeof VERDICTS)[number]} Verdict */
/** @typedef {{ name: string, dir: string, expected: 'passed' | 'failed' }} Release */
/** @typedef {{ verdict: Verdict, ms: number, why?: string }} Run */

const jobs = /** @type {import('@nativegtm/server/deployables').Deployable} */ (
  deployables.find((d) => d.remote === 'jobs')
);
const employers = /** @type {import('@nativegtm/server/deployables').Deployable} */ (
  deployables.find((d) => d.remote === 'employers')
);

/**
 * The load: two processes spinning a core each, and this file again as a webpack build loop of the employers remote.
 * @param {string} scratch
 * @returns {import('node:child_process').ChildProcess[]}
 */
function startLoad(scratch) {
  const spinners = [1, 2].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  const builds = spawn(process.execPath, [__filename, BUILD_LOOP, path.join(scratch, 'employers-builds')], {
    stdio: 'ignore',
  });
  return [...spinners, builds];
}

/**
 * Runs the gate on the release once, and tells its verdict.
 * @param {import('@nativegtm/store/operations').Gate} gate
 * @param {Release} release
 * @returns {Promise<Run>}
 */
async function judge(gate, release) {
  const started = performance.now();
  /** @type {(verdict: Verdict, why?: string) => Run} */
  const run = (verdict, why) => ({ verdict, ms: performance.now() - started, why });
  try {
    const result = await gate(release.dir);
    if (result.passed) return run('passed');
    const failed = result.checks.filter((check) => !check.ok);
    return run('failed', failed.map((check) => `${check.name}: ${check.detail ?? 'failed'}`).join('; '));
  } catch (error) {
    if (error instanceof Undecided) return run('could not judge', error.message);
    throw error;
  }
}

/**
 * Copies of the checkout's jobs build and the throwing page's build, in `scratch`.
 * @param {string} scratch
 * @returns {Promise<Release[]>}
 */
async function releases(scratch) {
  const good = path.join(jobs.dir, 'dist');
  const bare = path.join(scratch, 'without-html');
  fs.cpSync(good, bare, { recursive: true });
  // The page's HTML, every variant of it: what the composer pastes in, gone (the manifest still names the build).
  const bodies = path.join(bare, path.dirname(fragmentPaths.body('index')));
  fs.rmSync(bodies, { recursive: true, force: true });
  const throwing = path.join(scratch, 'throwing');
  console.error('Building the page that throws (tests/fixtures/throwing-page)…');
  await buildRemote({
    packageDir: path.join(repoRoot, 'tests/fixtures/throwing-page'),
    name: 'jobs',
    outputPath: throwing,
  });
  return [
    { name: 'good (the checkout)', dir: good, expected: 'passed' },
    { name: 'without its HTML', dir: bare, expected: 'failed' },
    { name: 'throws in the browser', dir: throwing, expected: 'failed' },
  ];
}

/** @param {number[]} values */
const times = (values) =>
  values.length === 0 ? '-' : `${(median(values) / 1000).toFixed(1)} / ${(Math.max(...values) / 1000).toFixed(1)} s`;

/**
 * @param {Release[]} judged
 * @param {Map<Release, Run[]>} runs
 */
function report(judged, runs) {
  const rows = judged.map((release) => {
    const mine = runs.get(release) ?? [];
    const of = (/** @type {Verdict} */ verdict) => mine.filter((run) => run.verdict === verdict);
    return [
      release.name,
      String(mine.length),
      ...VERDICTS.map((verdict) => String(of(verdict).length)),
      ...VERDICTS.map((verdict) => times(of(verdict).map((run) => run.ms))),
    ];
  });
  const header = ['release', 'runs', ...VERDICTS, ...VERDICTS.map((verdict) => `${verdict}: time`)];
  console.log(textTable(header, rows));
  console.log("\ntime: from the gate's start to its verdict, median / maximum of the runs with that verdict.");
  for (const release of judged) {
    /** @type {Map<string, number>} */
    const reasons = new Map();
    for (const run of runs.get(release) ?? []) {
      if (run.verdict === 'passed') continue;
      const line = `${run.verdict}: ${run.why}`;
      reasons.set(line, (reasons.get(line) ?? 0) + 1);
    }
    if (reasons.size === 0) continue;
    console.log(`\n${release.name}:`);
    for (const [line, count] of reasons) console.log(`  ${count} × ${line}`);
  }
}

async function main() {
  const { values } = readCommandLine(process.argv.slice(2), { usage: USAGE, options: { runs: { type: 'string' } } });
  const count = wholeNumberOption(values.runs, '--runs', { min: 1 }) ?? 20;
  buildIfNeeded(deployables, { log: (line) => console.error(line) });
  const chromiumPath = locateTool('CHROME_PATH');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-gate-bench-'));
  /** @type {import('node:child_process').ChildProcess[]} */
  let load = [];
  try {
    const judged = await releases(scratch);
    // An empty store: the gate's site serves the other packages' dist/, as on a machine with no release yet.
    const storeDir = path.join(scratch, 'releases');
    const gate = /** @type {import('@nativegtm/store/operations').Gate} */ (
      gateFor({ skip: false, storeDir, remote: 'jobs', chromiumPath })
    );
    load = startLoad(scratch);
    await new Promise((resolve) => setTimeout(resolve, LOAD_HEAD_START_MS));
    /** @type {Map<Release, Run[]>} */
    const runs = new Map(judged.map((release) => [release, []]));
    // In turn, so that every release meets the same load.
    for (let round = 1; round <= count; round += 1) {
      for (const release of judged) {
        const run = await judge(gate, release);
        runs.get(release)?.push(run);
        console.error(`run ${round} of ${count}, ${release.name}: ${run.verdict} (${(run.ms / 1000).toFixed(1)} s)`);
      }
    }
    console.log(
      `\nThe gate on a busy machine: two CPU spinners and a webpack build of ${employers.name} in a loop, ` +
        `${os.cpus().length} cores, ${count} runs of each release\n`,
    );
    report(judged, runs);
    const wrong = judged.flatMap((release) =>
      (runs.get(release) ?? []).filter((run) => run.verdict !== 'could not judge' && run.verdict !== release.expected),
    );
    if (wrong.length > 0) {
      console.log(`\n${wrong.length} wrong verdict(s): the gate judged the machine, not the release.`);
      process.exitCode = 1;
    }
  } finally {
    // Gone before their folder is: the build loop writes into it.
    await Promise.all(
      load.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill();
        await exited;
      }),
    );
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[2] === BUILD_LOOP) {
  const outputPath = /** @type {string} */ (process.argv[3]);
  (async () => {
    for (;;) await buildRemote({ packageDir: employers.dir, name: 'employers', outputPath });
  })().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

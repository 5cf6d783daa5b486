#!/usr/bin/env node
// `npm run test:flaky -- --runs 10 [--load build|clone|spin|none] [jest arguments…]`: the integration tests run again
// and again, as CI runs them, beside a load like CI's, and every test that failed at least once is listed with how
// often and its first failure line. A test that fails one run in ten fails a CI run a week: it is found here, not in
// CI.
//
// The loads, all along the runs: build (the default), the jobs remote built over and over into a scratch folder, as
// CI's builds keep the machine busy; clone, what a shared CI runner or a developer's machine does beside: this
// repository cloned, installed and built, again and again, in a scratch folder; spin, a process spinning on each core;
// none, nothing beside. Arguments after the options go to jest (a spec's path, say).
// Each run's jest report is kept in tests/.artifacts/flaky/. Exit code 1 when any test failed in any run. Stopped
// early (Ctrl-C, SIGTERM), it ends the run under way with every process it started, and prints the tally of the runs
// it finished.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { repoRoot } = require('@nativegtm/server/deployables');
const { readCommandLine, runCommand, wholeNumberOption, UsageError } = require('@nativegtm/server/commandLine');

const USAGE = 'npm run test:flaky -- [--runs <n>] [--load build|clone|spin|none] [jest arguments…]';
/** Each load's start: it runs until the function it returns is called. */
const LOADS = /** @type {Record<string, () => () => Promise<void>>} */ ({
  build: buildLoad,
  clone: cloneLoad,
  spin: spinLoad,
  none: () => async () => {},
});
const OPTIONS = /** @type {const} */ ({ runs: { type: 'string' }, load: { type: 'string' } });
const artifacts = path.join(repoRoot, 'tests/.artifacts/flaky');

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, quiet?: boolean, group?: boolean, cwd?: string }} [options] group: in a
 *   process group of its own, which stop() ends whole
 * @returns {{ child: import('node:child_process').ChildProcess, done: Promise<number | null>, stop: () => void }}
 */
function run(command, args, { env = process.env, quiet = false, group = false, cwd = repoRoot } = {}) {
  const child = spawn(command, args, { cwd, env, stdio: quiet ? 'ignore' : 'inherit', detached: group });
  const stop = () => {
    try {
      // The whole group: a run stopped early must not leave the servers its tests started (nginx, Varnish, browsers)
      // holding the ports the next run, or CI, will need.
      if (group && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      else child.kill('SIGTERM');
    } catch {
      // Already gone.
    }
  };
  /** @type {Promise<number | null>} */
  const done = new Promise((resolve) => {
    child.once('close', resolve);
    // A program that is not there (git, npm) ends its step, not the runner.
    child.once('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(null);
    });
  });
  return { child, done, stop };
}

/**
 * Builds the jobs remote into a scratch folder until told to stop: the load of CI's builds.
 * @returns {() => Promise<void>} stops it
 */
function buildLoad() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-flaky-load-'));
  let running = true;
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let current;
  const loop = (async () => {
    while (running) {
      const options = { packageDir: path.join(repoRoot, 'jobs-mfe'), name: 'jobs', outputPath: scratch };
      const script = `require('./tests/support/buildRemote').buildRemote(${JSON.stringify(options)})`;
      const build = run(process.execPath, ['-e', script], { quiet: true });
      current = build.child;
      await build.done;
    }
  })();
  return async () => {
    running = false;
    current?.kill('SIGTERM');
    await loop;
    fs.rmSync(scratch, { recursive: true, force: true });
  };
}

/**
 * Runs `step` again and again until told to stop, each time in an empty scratch folder.
 * @param {(scratch: string) => Promise<void>} step
 * @returns {() => Promise<void>} stops it
 */
function loop(step) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-flaky-load-'));
  let running = true;
  const looping = (async () => {
    while (running) {
      fs.rmSync(scratch, { recursive: true, force: true });
      fs.mkdirSync(scratch);
      await step(scratch);
    }
  })();
  return async () => {
    running = false;
    await looping;
    fs.rmSync(scratch, { recursive: true, force: true });
  };
}

/**
 * This repository cloned, installed and built in a scratch folder, again and again: git, npm's network and disk, and
 * webpack on every core, as a CI runner's other jobs or a developer's own work.
 * @returns {() => Promise<void>} stops it
 */
function cloneLoad() {
  /** @type {ReturnType<typeof run> | undefined} */
  let current;
  let stopping = false;
  const stopLoop = loop(async (scratch) => {
    const copy = path.join(scratch, 'site');
    const steps = /** @type {[string, string[], string][]} */ ([
      ['git', ['clone', '--quiet', repoRoot, copy], scratch],
      ['npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], copy],
      ['npm', ['run', 'build'], copy],
    ]);
    for (const [command, args, cwd] of steps) {
      if (stopping) return;
      current = run(command, args, { quiet: true, group: true, cwd });
      // A step that fails (the registry away) ends this round; the next starts over.
      if ((await current.done) !== 0) return;
    }
  });
  return async () => {
    stopping = true;
    current?.stop();
    await stopLoop();
  };
}

/**
 * A process spinning on each core: a runner whose every core another job holds.
 * @returns {() => Promise<void>} stops it
 */
function spinLoad() {
  const spinners = Array.from({ length: os.availableParallelism() }, () =>
    run(process.execPath, ['-e', 'for (;;);'], { quiet: true }),
  );
  return async () => {
    for (const spinner of spinners) spinner.stop();
    await Promise.all(spinners.map((spinner) => spinner.done));
  };
}

/**
 * The failed tests of one jest JSON report: a test's name, or a spec that failed before its tests ran.
 * @param {string} file
 * @returns {{ name: string, reason: string }[]}
 */
function failuresIn(file) {
  /** @type {{ testResults: { name: string, message: string, assertionResults: { status: string,
   *   fullName: string, failureMessages: string[] }[] }[] }} */
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const firstLine = (/** @type {string} */ text) =>
    (text.split('\n').find((line) => line.trim() !== '') ?? '').trim().slice(0, 160);
  return report.testResults.flatMap((spec) => {
    const specName = path.relative(repoRoot, spec.name);
    const failed = spec.assertionResults.filter((test) => test.status === 'failed');
    if (failed.length === 0 && spec.message)
      return [{ name: `${specName} (the spec)`, reason: firstLine(spec.message) }];
    return failed.map((test) => ({
      name: `${specName} › ${test.fullName}`,
      reason: firstLine(test.failureMessages[0] ?? ''),
    }));
  });
}

async function main() {
  const { values, positionals } = readCommandLine(process.argv.slice(2), {
    usage: USAGE,
    options: OPTIONS,
    max: Number.POSITIVE_INFINITY,
  });
  const runs = wholeNumberOption(values.runs, '--runs', { min: 1 }) ?? 10;
  const load = values.load ?? 'build';
  const startLoad = LOADS[load];
  if (!startLoad) throw new UsageError(`--load is one of ${Object.keys(LOADS).join(', ')}, not "${load}"`);
  fs.rmSync(artifacts, { recursive: true, force: true });
  fs.mkdirSync(artifacts, { recursive: true });
  const stopLoad = startLoad();
  /** @type {Map<string, { count: number, reason: string, runs: number[] }>} */
  const tally = new Map();
  const durations = [];
  /** @type {(() => void) | undefined} */
  let stopCurrent;
  let stopped = false;
  const stop = () => {
    stopped = true;
    stopCurrent?.();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    for (let index = 1; index <= runs && !stopped; index += 1) {
      const report = path.join(artifacts, `run-${index}.json`);
      const started = Date.now();
      console.log(`\n== run ${index} of ${runs} (load: ${load})`);
      const jest = run(
        process.execPath,
        [
          require.resolve('jest/bin/jest'),
          '--selectProjects',
          'integration',
          '--json',
          `--outputFile=${report}`,
          ...positionals,
        ],
        { group: true },
      );
      stopCurrent = jest.stop;
      const status = await jest.done;
      if (stopped) break;
      durations.push((Date.now() - started) / 1000);
      const failures = fs.existsSync(report)
        ? failuresIn(report)
        : [{ name: '(jest wrote no report)', reason: `exit ${status}` }];
      for (const { name, reason } of failures) {
        const entry = tally.get(name) ?? { count: 0, reason, runs: [] };
        entry.count += 1;
        entry.runs.push(index);
        tally.set(name, entry);
      }
      console.log(`== run ${index}: ${failures.length === 0 ? 'passed' : `${failures.length} failed`}`);
    }
  } finally {
    await stopLoad();
  }
  const minutes = (durations.reduce((sum, seconds) => sum + seconds, 0) / 60).toFixed(1);
  const finished = durations.length;
  const stoppedEarly = finished < runs ? ` (stopped: ${finished} of the ${runs} asked for)` : '';
  console.log(`\n${finished} runs of the integration tests (load: ${load}), ${minutes} min in all${stoppedEarly}`);
  if (finished === 0) {
    process.exitCode = 1;
    return;
  }
  if (tally.size === 0) {
    console.log('Every test passed in every run.');
    return;
  }
  console.log('Tests that failed at least once: failed runs / runs, which runs, the first failure line');
  for (const [name, { count, runs: which, reason }] of [...tally].sort((a, b) => b[1].count - a[1].count)) {
    console.log(`  ${count}/${finished}  (runs ${which.join(', ')})  ${name}\n        ${reason}`);
  }
  process.exitCode = 1;
}

runCommand(USAGE, main);

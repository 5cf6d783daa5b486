// The Turborepo run behind `npm run check` (turbo.json has the tasks): which tasks, in which packages, how many at once.
const os = require('node:os');
const path = require('node:path');

/** The tasks every package the change affects runs. */
const CHECK_TASKS = ['lint', 'typecheck', 'test', 'build'];
/** Turborepo's command (its npm package starts the binary of this platform). */
const TURBO = path.join(path.dirname(require.resolve('turbo/package.json')), 'bin', 'turbo');

/**
 * turbo's arguments for checking one package: it and the packages it is built from, and, when the change since
 * `base` touches a shared package, every package that one reaches.
 * @param {{ packageName: string, base: string, concurrency?: number, tasks?: string[] }} options
 */
function turboArguments({ packageName, base, concurrency = os.availableParallelism(), tasks = CHECK_TASKS }) {
  return [
    'run',
    ...tasks,
    `--filter=${packageName}...`,
    `--filter=...{./shared/*}[${base}]`,
    '--output-logs=errors-only',
    // One failure does not hide another: every task whose own inputs are sound still runs.
    '--continue=dependencies-successful',
    // One a core: more only take turns, and hold more memory while they wait.
    `--concurrency=${Math.max(1, concurrency)}`,
  ];
}

/** What turbo's environment adds: no telemetry. */
const TURBO_ENV = { TURBO_TELEMETRY_DISABLED: '1' };

module.exports = { TURBO, TURBO_ENV, turboArguments };

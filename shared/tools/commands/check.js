// `npm run check -- <remote> [--base <git ref>]`: what a change to one remote needs before it ships, in minutes
// rather than the whole site's CI. First its lint, typecheck, unit tests and build as Turborepo tasks (turbo.json):
// the remote's package and the shared packages it is built from, and, when the change since the base touches a
// shared package, every package that one reaches (the whole site, for the design system or the contract); each
// task's result is cached in .turbo/ by its inputs, so what did not change is not run again. Then its page composed
// with the site's live state (the release store's live releases, else the other packages' dist/) in headless
// Chromium: the release gate's checks. `.ci/run` still runs everything.
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { once } = require('node:events');
const { remoteNames, isRemoteName } = require('@nativegtm/contract/remotes');
const { readCommandLine, runCommand, Refusal, UsageError } = require('@nativegtm/server/commandLine');
const { configOrExit } = require('@nativegtm/server/config');
const { deployables, repoRoot } = require('@nativegtm/server/deployables');
const { storeDir } = require('@nativegtm/server/storeDir');
const { buildIfNeeded } = require('../buildIfNeeded');
const { toolsConfig } = require('../config');
const { TURBO, TURBO_ENV, turboArguments } = require('../check/turboRun');
const { failedTests } = require('../check/failedTests');

const USAGE = 'npm run check -- <remote> [--base <git ref>]';
const DESCRIPTION = `Lint, typecheck, unit tests and build of the remote (and of what a change since the base to the
shared packages reaches), only where their inputs changed; then the remote's page composed with the live site in
headless Chromium. --base: where the change starts (the merge base with main unless given). The remotes:
${remoteNames.join(', ')}.`;

/**
 * Where the change starts: the commit this branch left main at (on main itself, HEAD: what is not committed).
 * @returns {string}
 */
function defaultBase() {
  const found = spawnSync('git', ['merge-base', 'HEAD', 'main'], { cwd: repoRoot, encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : 'HEAD';
}

runCommand(USAGE, async () => {
  const { values, positionals } = readCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description: DESCRIPTION,
    min: 1,
    options: { base: { type: 'string' } },
  });
  const remote = /** @type {string} */ (positionals[0]);
  if (!isRemoteName(remote)) {
    throw new UsageError(`unknown remote "${remote}" (the remotes are ${remoteNames.join(', ')})`);
  }
  const config = configOrExit(toolsConfig);
  const deployable = /** @type {import('@nativegtm/server/deployables').Deployable} */ (
    deployables.find((candidate) => candidate.remote === remote)
  );
  const base = values.base ?? defaultBase();
  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

  console.error(`Checking ${deployable.name}, and what a change to the shared packages since ${base} reaches…`);
  const turbo = spawn(process.execPath, [TURBO, ...turboArguments({ packageName: deployable.name, base })], {
    cwd: repoRoot,
    stdio: ['inherit', 'pipe', 'inherit'],
    env: { ...process.env, ...TURBO_ENV },
  });
  // Shown as it comes, and kept to name the failed tests under it (decoded as a stream: a character split across two
  // chunks stays whole).
  turbo.stdout.setEncoding('utf8');
  let log = '';
  turbo.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    log += chunk;
  });
  const [status] = await once(turbo, 'close');
  if (status !== 0) {
    const failed = failedTests(log);
    if (failed.length > 0) console.error(`The tests that failed:\n${failed.map((line) => `  ${line}`).join('\n')}`);
    throw new Refusal(`${remote}: a check failed (above), after ${seconds()}; the page was not checked`);
  }

  // The live site the page is composed with: the store's live releases, else the other packages' builds.
  buildIfNeeded(
    deployables.filter((other) => other !== deployable),
    { log: (line) => console.error(line) },
  );
  console.error(`Checking the ${remote} page composed with the live site, in headless Chromium…`);
  // Required only here: it loads Playwright.
  const { runGate } = require('../releases/gate/runGate');
  const result = await runGate({
    storeDir: storeDir(config.RELEASES_DIR),
    remote,
    releaseDir: path.join(deployable.dir, 'dist'),
    chromiumPath: config.CHROME_PATH,
  });
  for (const check of result.checks) {
    console.error(`  ${check.ok ? '✓' : '✗'} ${check.name}${check.ok ? '' : `: ${check.detail ?? 'failed'}`}`);
  }
  if (!result.passed) throw new Refusal(`${remote}: its page failed in the live site, after ${seconds()}`);
  console.log(`${remote}: checked in ${seconds()}.`);
});

// `npm run bench:compare -- --canary`: a canary of the jobs page at 25 % running in this checkout's store while both
// commits are loaded as a visitor outside it (their browser sends a bucket outside both sides), so that what a
// running canary costs everyone else is judged against the other commit, not against this one without it; and, not
// judged, as a visitor in it (a personal document: composed with the release's HTML, with its own token).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { BUCKET_COOKIE, BUCKETS, sideOf } = require('@nativegtm/contract/canaryBuckets');
const { deployables, repoRoot } = require('@nativegtm/server/deployables');
const { readCanary } = require('@nativegtm/store/canaryInStore');
const { storeLayout } = require('@nativegtm/store/layout');
const { buildRemote } = require('../../support/buildRemote');
const { npmRun } = require('../../support/releaseCommands');

const SHARE = 25;

/**
 * @param {string} script
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @returns {Promise<string>} the command's last line (a release id)
 */
async function succeeded(script, args, env) {
  const result = await npmRun(script, args, env);
  if (result.status !== 0) throw new Error(`npm run ${script} failed: ${result.stderr.trim()}`);
  return result.lastLine;
}

/**
 * Makes the checkout's jobs build live in `storeDir`, then runs a canary of a second build of it at SHARE % until
 * `stop()`.
 * @param {string} storeDir
 * @param {(line: string) => void} log
 * @returns {Promise<{ outside: string, inside: string, stop: () => Promise<void> }>} the Cookie header of a visitor
 *   outside the canary, and of one in it
 */
async function runningCanary(storeDir, log) {
  const jobs = /** @type {import('@nativegtm/server/deployables').Deployable} */ (
    deployables.find((d) => d.remote === 'jobs')
  );
  const env = { RELEASES_DIR: storeDir };
  const second = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-compare-canary-'));
  log('Building a second release of jobs for the canary…');
  await buildRemote({ packageDir: jobs.dir, name: 'jobs', outputPath: second });
  const live = await succeeded('release', ['jobs', '--from', path.join(jobs.dir, 'dist')], env);
  await succeeded('promote', ['jobs', live, '--skip-gate'], env);
  const id = await succeeded('release', ['jobs', '--from', second], env);
  const command = spawn(
    process.execPath,
    ['shared/tools/commands/canary.js', 'jobs', id, '--steps', `${SHARE},100`, '--step-time', '24h', '--skip-gate'],
    { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // Its one line when it ends: told only when it did not start (an abort ends it with a line too).
  let stderr = '';
  command.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => command.once('exit', resolve));
  const layout = storeLayout(storeDir, 'jobs');
  const deadline = Date.now() + 60_000;
  while (readCanary(layout).canary?.share !== SHARE) {
    if (Date.now() > deadline) throw new Error(`the canary did not start within a minute: ${stderr.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  /** @param {'outside' | 'canary'} side */
  const cookieOn = (side) =>
    `${BUCKET_COOKIE}=${[...Array(BUCKETS).keys()].find((bucket) => sideOf(bucket, 'jobs', SHARE) === side)}`;
  return {
    outside: cookieOn('outside'),
    inside: cookieOn('canary'),
    async stop() {
      await npmRun('canary', ['jobs', '--abort'], env);
      await exited;
      fs.rmSync(second, { recursive: true, force: true });
    },
  };
}

module.exports = { runningCanary, CANARY_SHARE: SHARE };

// The release commands as a team runs them (`npm run release|promote|rollback|… -- <args>`), for the release tests
// and `npm run bench:releases`.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { repoRoot } = require('@nativegtm/server/deployables');

/** Where each canary command's output is kept (startCanaryCommand). */
const COMMAND_LOGS = path.join(repoRoot, 'tests/.artifacts/commands');

/**
 * @typedef {object} CommandResult
 * @property {number | null} status
 * @property {string} stdout
 * @property {string} stderr
 * @property {string} lastLine the last line printed on stdout: a release id, a URL
 */

/**
 * Runs `npm run <script> -- <args>` at the repository's root, with `env` added (RELEASES_DIR, …). Asynchronous, so
 * two commands can run at once.
 * @param {string} script
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @returns {Promise<CommandResult>}
 */
function npmRun(script, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (status) => {
      const lines = stdout.trimEnd().split('\n');
      resolve({ status, stdout, stderr, lastLine: lines[lines.length - 1] ?? '' });
    });
  });
}

/**
 * A running command: its output so far, and how it ended once it has.
 * @typedef {{ child: import('node:child_process').ChildProcessWithoutNullStreams, output: () => string,
 *   done: Promise<{ status: number | null, stdout: string, stderr: string }> }} RunningCommand
 */

/**
 * Starts `npm run canary -- <args>` as the node process itself (not under npm), so that a signal to the child
 * (SIGSTOP, kill -9) reaches the command.
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @returns {RunningCommand}
 */
function startCanaryCommand(args, env) {
  const child = spawn(process.execPath, ['shared/tools/commands/canary.js', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  // Kept whole in a file too: a command that ended before a test looked at it (the test then fails on what the
  // store says) leaves what it printed where the next engineer can read it.
  fs.mkdirSync(COMMAND_LOGS, { recursive: true });
  const log = fs.createWriteStream(path.join(COMMAND_LOGS, `canary-${Date.now()}-${child.pid}.log`));
  log.write(`$ canary ${args.join(' ')}\n`);
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    log.write(chunk);
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    log.write(chunk);
  });
  const done = new Promise((resolve) =>
    child.once('close', (status, signal) => {
      log.end(`[ended: ${signal ?? `exit ${status}`} at ${new Date().toISOString()}]\n`);
      resolve({ status, stdout, stderr });
    }),
  );
  return { child, output: () => stdout + stderr, done };
}

module.exports = { npmRun, startCanaryCommand };

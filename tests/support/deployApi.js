// The deploy API as the operator runs it (`npm run deploy-api`), in front of a test's store, for the specs that act
// on that store as a team's pipeline would (`--to`).
const { spawn } = require('node:child_process');
const { repoRoot } = require('@nativegtm/server/deployables');
const { waitForPort } = require('./waitForPort');

/**
 * Starts the API on `port` (its metrics on `port + 1`) with `env` (the store: RELEASES_DIR, or DATABASE_URL with
 * RELEASES_BUCKET); resolves once it listens.
 * @param {Record<string, string>} env
 * @param {number} port
 */
async function startDeployApi(env, port) {
  const child = spawn(process.execPath, ['shared/deploy/commands/serve.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...env,
      DEPLOY_API_PORT: String(port),
      DEPLOY_METRICS_PORT: String(port + 1),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await Promise.race([
      waitForPort(port, { what: 'the deploy API: nothing' }),
      exited.then((code) => Promise.reject(new Error(`the deploy API exited (${code}):\n${stderr}`))),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: /** @type {number} */ (child.pid),
    /** SIGKILL, as a machine that fails. */
    kill: () => child.kill('SIGKILL'),
    /** SIGTERM, as a restart sends it; resolves once it has exited. */
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

module.exports = { startDeployApi };

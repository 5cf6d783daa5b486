#!/usr/bin/env node
// `npm start`: build what is not built, then serve the composed site on http://localhost:3000 (the remotes on the
// ports of shared/contract/pages.js) from one worker per core (WEB_CONCURRENCY), with JSON logs on stdout
// (LOG_LEVEL) and every worker's metrics on METRICS_HOST:METRICS_PORT. SIGHUP restarts the workers one at a time
// (new code and configuration, no request failed); SIGTERM and Ctrl+C finish the requests under way, then stop.
const cluster = require('node:cluster');
const os = require('node:os');
const { portsFrom, SHELL_PORT } = require('@nativegtm/contract/ports');
const { deployables } = require('../deployables');
const { buildIfNeeded } = require('../buildIfNeeded');
const { createLogger } = require('../observability/logger');
const { startMetricsServer } = require('../observability/metricsServer');
const { createPrimary } = require('../cluster/primary');
const { runWorker } = require('../cluster/worker');
const { defaultStoreDir } = require('../releases/storeLayout');

/**
 * A number from the environment, or undefined when the variable is unset or empty.
 * @param {string} name
 */
function numberFromEnv(name) {
  const text = process.env[name];
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, not ${text}`);
  return value;
}

async function primary() {
  const logger = createLogger({ level: process.env.LOG_LEVEL || 'info' });
  buildIfNeeded(deployables, { log: (line) => logger.info(line) });
  const count = numberFromEnv('WEB_CONCURRENCY') || os.availableParallelism();
  const workers = createPrimary({ count, logger });
  const pids = await workers.start();
  const metricsServer = await startMetricsServer(workers, {
    host: process.env.METRICS_HOST || undefined,
    port: numberFromEnv('METRICS_PORT'),
  }).catch(async (/** @type {Error} */ error) => {
    await workers.stop();
    throw error;
  });
  const ports = sitePorts();
  for (const deployable of deployables) {
    logger.info({ server: deployable.name, url: `http://localhost:${ports[deployable.name]}` }, 'listening');
  }
  logger.info(
    { workers: pids, metrics: metricsServer.url },
    `NativeGTM is running on http://localhost:${ports.shell} (Ctrl+C to stop)`,
  );

  process.on('SIGHUP', () => {
    void workers.restart();
  });
  /** @param {NodeJS.Signals} signal */
  const shutdown = async (signal) => {
    logger.info({ signal }, 'stopping: the workers finish the requests under way');
    await Promise.all([workers.stop(), metricsServer.stop()]);
    logger.info('stopped');
    logger.flush();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

/** Every deployable's port: from PORT_BASE (the shell's; the remotes after it, as by default from 3000). */
function sitePorts() {
  return portsFrom(numberFromEnv('PORT_BASE') ?? SHELL_PORT);
}

function worker() {
  return runWorker({
    ports: sitePorts(),
    remotesFile: process.env.REMOTES_FILE || undefined,
    releasesDir: defaultStoreDir(),
    origin: process.env.SITE_ORIGIN || undefined,
    fragmentTimeoutMs: numberFromEnv('FRAGMENT_TIMEOUT_MS'),
    logger: createLogger({ level: process.env.LOG_LEVEL || 'info' }),
  });
}

(cluster.isPrimary ? primary() : worker()).catch((error) => {
  console.error(`\nCould not start the site: ${error.message}`);
  process.exit(1);
});

#!/usr/bin/env node
// `npm start`: build what is not built, then serve the composed site on http://localhost:3000 (the remotes on the
// ports of shared/contract/pages.js), with JSON logs on stdout (LOG_LEVEL) and metrics on METRICS_HOST:METRICS_PORT.
const { deployables } = require('../deployables');
const { buildIfNeeded } = require('../buildIfNeeded');
const { startSite } = require('../startSite');
const { createLogger } = require('../observability/logger');
const { createMetrics } = require('../observability/metrics');
const { startMetricsServer } = require('../observability/metricsServer');

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

async function main() {
  const logger = createLogger({ level: process.env.LOG_LEVEL || 'info' });
  buildIfNeeded(deployables, { log: (line) => logger.info(line) });
  const metrics = createMetrics();
  const site = await startSite(deployables, {
    origin: process.env.SITE_ORIGIN || undefined,
    fragmentTimeoutMs: numberFromEnv('FRAGMENT_TIMEOUT_MS'),
    logger,
    metrics,
  });
  const metricsServer = await startMetricsServer(metrics, {
    host: process.env.METRICS_HOST || undefined,
    port: numberFromEnv('METRICS_PORT'),
  }).catch(async (/** @type {Error} */ error) => {
    await site.stop();
    throw error;
  });
  for (const { deployable, port } of site.servers) {
    logger.info({ server: deployable.name, url: `http://localhost:${port}` }, 'listening');
  }
  logger.info({ metrics: metricsServer.url }, 'NativeGTM is running on http://localhost:3000 (Ctrl+C to stop)');

  /** @param {NodeJS.Signals} signal */
  const shutdown = async (signal) => {
    logger.info({ signal }, 'stopping the servers');
    await Promise.all([site.stop(), metricsServer.stop()]);
    logger.flush();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  console.error(`\nCould not start the site: ${error.message}`);
  process.exit(1);
});

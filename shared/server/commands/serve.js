#!/usr/bin/env node
// Serves the composed site from the builds as they are (the shell on PORT_BASE, 3000 by default, the remotes on the
// ports after it) from one worker per core (WEB_CONCURRENCY), with JSON logs on stdout (LOG_LEVEL), and every worker's
// metrics and the field-data status page (/status) on METRICS_HOST:METRICS_PORT. What a server image runs; `npm start`
// builds what is stale first and then runs this. SIGHUP restarts the workers one at a time (new code and
// configuration, no request failed); SIGTERM and Ctrl+C finish the requests under way, then stop.
const cluster = require('node:cluster');
const { portsFrom } = require('@nativegtm/contract/ports');
const { configOrExit, serverConfig } = require('../config');
const { deployables } = require('../deployables');
const { createLogger } = require('../observability/logger');
const { startMetricsServer } = require('../observability/metricsServer');
const { createStatusPage } = require('../observability/statusPage');
const { integrityFailuresIn } = require('../observability/integrityFailures');
const { fieldDataDir } = require('../fieldData/recordStore');
const { fieldDataOptions } = require('../fieldData/fieldCollector');
const { createPrimary } = require('../cluster/primary');
const { runWorker } = require('../cluster/worker');
const { storeDir } = require('../storeDir');
const { startStoreSync } = require('../releases/storeSync');

/** @typedef {import('../config').ServerConfig} ServerConfig */

/**
 * The primary: starts the workers (each runs this file) and the metrics server, and handles the signals.
 * @param {ServerConfig} config
 */
async function primary(config) {
  const logger = createLogger({ level: config.LOG_LEVEL });
  // On PostgreSQL, the node's copy of the store: the workers serve it, and are not ready until it is there.
  const storeSync = startStoreSync(config, storeDir(config.RELEASES_DIR), logger);
  cluster.setupPrimary({ exec: __filename });
  const workers = createPrimary({ count: config.WEB_CONCURRENCY, logger });
  const pids = await workers.start();
  const metricsServer = await startMetricsServer(workers, {
    host: config.METRICS_HOST,
    port: config.METRICS_PORT,
    // The primary reads the stores every worker writes to and serves from, so the page covers them all.
    statusPage: createStatusPage({
      fieldDataDir: fieldDataDir(config.FIELD_DATA_DIR),
      databaseUrl: config.DATABASE_URL,
      releasesDir: storeDir(config.RELEASES_DIR),
      integrityFailures: async () => integrityFailuresIn(await workers.registry.metrics()),
    }),
  }).catch(async (/** @type {Error} */ error) => {
    await workers.stop();
    throw error;
  });
  const ports = portsFrom(config.PORT_BASE);
  for (const deployable of deployables) {
    logger.info({ server: deployable.name, url: `http://localhost:${ports[deployable.name]}` }, 'listening');
  }
  logger.info(
    { workers: pids, metrics: metricsServer.url, status: metricsServer.url.replace(/\/metrics$/, '/status') },
    `NativeGTM is running on http://localhost:${ports.shell} (Ctrl+C to stop)`,
  );

  process.on('SIGHUP', () => {
    void workers.restart();
  });
  /** @param {NodeJS.Signals} signal */
  const shutdown = async (signal) => {
    logger.info({ signal }, 'stopping: the workers finish the requests under way');
    await Promise.all([workers.stop(), metricsServer.stop(), storeSync?.stop()]);
    logger.info('stopped');
    logger.flush();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

/** @param {ServerConfig} config */
function worker(config) {
  return runWorker({
    ports: portsFrom(config.PORT_BASE),
    host: config.HOST,
    remotesFile: config.REMOTES_FILE,
    releasesDir: storeDir(config.RELEASES_DIR),
    storeCopy: Boolean(config.DATABASE_URL),
    origin: config.SITE_ORIGIN,
    fragmentTimeoutMs: config.FRAGMENT_TIMEOUT_MS,
    fieldData: fieldDataOptions(config),
    sampleRate: config.RUM_SAMPLE_RATE,
    overrideOrigins: config.OVERRIDE_ORIGINS,
    logger: createLogger({ level: config.LOG_LEVEL }),
  });
}

/**
 * Serves the site in this process (the primary) or as one of its workers.
 * @param {ServerConfig} [config] read from the environment unless given
 */
function serveSite(config = configOrExit(serverConfig)) {
  return (cluster.isPrimary ? primary(config) : worker(config)).catch((error) => {
    console.error(`\nCould not start the site: ${error.message}`);
    process.exit(1);
  });
}

if (require.main === module) void serveSite();

module.exports = { serveSite };

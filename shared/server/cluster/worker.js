// One worker of the built-in server's cluster: the whole site (every deployable's port; the cluster shares the
// listening sockets) in this process. It tells the primary when it serves, and drains before it exits when asked to
// (a rolling restart, a shutdown) or signalled.
const { AggregatorRegistry } = require('prom-client');
const { deployables } = require('../deployables');
const { startSite } = require('../startSite');
const { createMetrics } = require('../observability/metrics');
const { isMessage, messages } = require('./messages');

/**
 * @param {Omit<NonNullable<Parameters<typeof startSite>[1]>, 'metrics'> & {
 *   logger: import('../observability/logger').Logger }} options
 */
async function runWorker(options) {
  const { logger } = options;
  const send = (/** @type {import('./messages').WorkerMessage} */ message) => process.send?.(message);
  const metrics = createMetrics();
  // The primary's /metrics asks every worker for this registry and sums them up. (An instance is what makes
  // prom-client answer the primary's requests in a worker.)
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([metrics.registry]);
  let site;
  try {
    site = await startSite(deployables, { ...options, metrics });
  } catch (error) {
    send({ type: messages.failed, message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  const running = site;
  let draining = false;
  const drainAndExit = async () => {
    if (draining) return;
    draining = true;
    logger.info('draining: taking no new connections, finishing the requests under way');
    await running.drain();
    logger.info('drained');
    logger.flush();
    process.exit(0);
  };
  process.on('message', (/** @type {unknown} */ message) => {
    if (isMessage(message) && message.type === messages.drain) void drainAndExit();
  });
  // Ctrl+C reaches every process of the terminal's group; a primary that is gone leaves no one to ask.
  process.on('SIGINT', drainAndExit);
  process.on('SIGTERM', drainAndExit);
  process.on('disconnect', drainAndExit);
  // Reloads are the primary's (a rolling restart): a hangup sent to the whole group must not end a worker.
  process.on('SIGHUP', () => {});
  send({ type: messages.ready });
}

module.exports = { runWorker };

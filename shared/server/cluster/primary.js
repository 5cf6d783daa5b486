// The built-in server's primary process: it serves nothing itself but runs the workers (cluster/worker.js, one per
// core unless told otherwise), which share the listening ports. SIGHUP replaces them one at a time, each new worker
// serving before the old one drains, so a reload fails no request; SIGTERM drains them all. A worker that dies is
// replaced. Metrics are every worker's, summed up.
const cluster = require('node:cluster');
const { AggregatorRegistry } = require('prom-client');
const { DRAIN_GRACE_MS } = require('../httpServer');
const { isMessage, messages } = require('./messages');

/** How long a new worker may take to serve; how long a draining one may take beyond the drain's own grace. */
const START_TIMEOUT_MS = 30_000;
const EXIT_MARGIN_MS = 5_000;
/** A worker that died is replaced after this pause, so a worker that cannot start does not spin the machine. */
const REPLACE_DELAY_MS = 1_000;

/** @typedef {import('node:cluster').Worker} Worker */

/**
 * @param {{ count: number, logger: import('../observability/logger').Logger }} options
 */
function createPrimary({ count, logger }) {
  const aggregator = new AggregatorRegistry();
  /** The workers that serve, or were started to serve. @type {Set<Worker>} */
  const serving = new Set();
  let stopping = false;
  /** Restarts run one after the other. */
  let restarts = Promise.resolve();

  /** @param {Worker} worker */
  function watch(worker) {
    worker.once('exit', (code, signal) => {
      if (!serving.delete(worker) || stopping) return;
      logger.error({ worker: worker.process.pid, code, signal }, 'a worker died: starting another');
      setTimeout(() => {
        if (stopping) return;
        startWorker().then(
          (fresh) => serving.add(fresh),
          (error) => logger.error({ err: error }, 'the replacement worker could not start'),
        );
      }, REPLACE_DELAY_MS).unref();
    });
  }

  /**
   * A new worker, once it serves on every port.
   * @returns {Promise<Worker>}
   */
  function startWorker() {
    const worker = cluster.fork();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => fail(new Error(`a worker did not serve within ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      /** @param {Error} error */
      const fail = (error) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        worker.process.kill('SIGKILL');
        reject(error);
      };
      /** @param {unknown} message */
      const onMessage = (message) => {
        if (!isMessage(message)) return;
        if (message.type === messages.failed) fail(new Error(String(message.message)));
        if (message.type !== messages.ready) return;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        watch(worker);
        resolve(worker);
      };
      const onExit = () => fail(new Error(`a worker exited before it served (pid ${worker.process.pid})`));
      worker.on('message', onMessage);
      worker.once('exit', onExit);
    });
  }

  /**
   * Asks a worker to drain and resolves once it has exited (it is killed if it takes too long).
   * @param {Worker} worker
   * @returns {Promise<void>}
   */
  function stopWorker(worker) {
    serving.delete(worker);
    if (worker.isDead()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => worker.process.kill('SIGKILL'), DRAIN_GRACE_MS + EXIT_MARGIN_MS);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.send({ type: messages.drain });
    });
  }

  /** Replaces every worker, one at a time; a new worker that cannot start ends the restart, the old ones serving. */
  async function rollingRestart() {
    const old = [...serving];
    logger.info({ workers: old.map((worker) => worker.process.pid) }, 'rolling restart: replacing the workers');
    for (const worker of old) {
      if (stopping) return;
      let fresh;
      try {
        fresh = await startWorker();
      } catch (error) {
        logger.error({ err: error }, 'rolling restart stopped: a new worker could not start; the others serve on');
        return;
      }
      serving.add(fresh);
      await stopWorker(worker);
    }
    logger.info({ workers: [...serving].map((worker) => worker.process.pid) }, 'rolling restart done');
  }

  return {
    /** Starts the workers; rejects (and stops those that started) if one cannot serve, e.g. a port in use. */
    async start() {
      const started = await Promise.allSettled(Array.from({ length: count }, () => startWorker()));
      for (const result of started) if (result.status === 'fulfilled') serving.add(result.value);
      const failure = started.find((result) => result.status === 'rejected');
      if (failure) {
        await this.stop();
        throw failure.reason;
      }
      return [...serving].map((worker) => worker.process.pid);
    },
    /** A rolling restart; one asked for while another runs waits for it, then runs. */
    restart() {
      const run = restarts.then(rollingRestart);
      restarts = run.catch(() => undefined);
      return run;
    },
    /** Drains every worker; resolves once all have exited. */
    async stop() {
      stopping = true;
      await Promise.all([...serving].map(stopWorker));
    },
    /** Every worker's metrics, summed up (what the metrics server serves). */
    registry: {
      metrics: () => aggregator.clusterMetrics(),
      contentType: aggregator.contentType,
    },
  };
}

module.exports = { createPrimary };

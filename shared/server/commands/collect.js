#!/usr/bin/env node
// nativegtm-collect: the field-data collector for a site served by nginx, which has no Node process of its own. nginx
// passes POST /_field-data to it (the generated configuration's collector upstream, COLLECTOR_PORT on loopback), and
// asks it for the token of each private document it composes (/_field-data/token, an SSI include);
// it checks, labels and keeps the records exactly as the built-in server does (fieldData/), in the same
// FIELD_DATA_DIR, and counts them on its own metrics port (METRICS_HOST:METRICS_PORT). Run one per nginx node, beside
// it, with the same RELEASES_DIR and REMOTES_FILE as the generated configuration. With the store on PostgreSQL
// (DATABASE_URL), it also keeps the node's copy of it in RELEASES_DIR, and reloads nginx when a canary changed; and it
// answers nginx's /readyz for the node (readiness.js), and the shell's /remotes.json (releases/vouchedRemotes.js): nginx
// passes it here with whom the request is for (releases/nginxChoice.js), as the integrity it carries is the store's
// to vouch for. With DOCUMENTS_DIR, it composes the documents for everyone that nginx sends as files
// (documentFiles.js). SIGTERM and Ctrl+C write out what is buffered, then stop.
const path = require('node:path');
const { COHORT, FIELD_DATA_PATH, FIELD_TOKEN_PATH, fieldTokenTag } = require('@nativegtm/contract/fieldData');
const { remoteNames } = require('@nativegtm/contract/remotes');
const { REPORTS_PATH } = require('@nativegtm/contract/reports');
const { configOrExit, readEnv, SERVER_SPECS } = require('../config');
const { deployables } = require('../deployables');
const { HEALTH_PATH } = require('../healthPaths');
const { createHttpServer, listen, close } = require('../httpServer');
const { createLogger } = require('../observability/logger');
const { createMetrics } = require('../observability/metrics');
const { startMetricsServer } = require('../observability/metricsServer');
const { createRemotesFile } = require('../remotesFile');
const { createRouteHandler, is, sendText } = require('../routeTable');
const { storeDir } = require('../storeDir');
const { createFieldCollector, fieldDataOptions } = require('../fieldData/fieldCollector');
const { pollLiveBuilds } = require('../fieldData/liveBuildsPoller');
const { createFieldLabels } = require('../fieldData/fieldLabels');
const { reloadNginx, RETRIED_RELOAD_TIMEOUT_MS } = require('../nginxReload');
const { createReadiness, readinessRoutes } = require('../readiness');
const { createReportsEndpoint } = require('../reportsEndpoint');
const { storeCopyReader } = require('../releases/storeCopy');
const { choiceFromHeaders } = require('../releases/nginxChoice');
const { createVouchedRemotes, remotesJsonRoute } = require('../releases/vouchedRemotes');
const { storeFragmentsRoute } = require('../releases/storeFragments');
const { fragmentEvents } = require('../observability/fragmentEvents');
const { startStoreSync } = require('../releases/storeSync');
const { createCanaries } = require('../releases/canaries');
const { startDocumentFiles } = require('../documentFiles');
const { pages } = require('@nativegtm/contract/pages');

const SPECS = {
  COLLECTOR_PORT: SERVER_SPECS.COLLECTOR_PORT,
  FIELD_DATA_DIR: SERVER_SPECS.FIELD_DATA_DIR,
  FIELD_DATA_SECRET: SERVER_SPECS.FIELD_DATA_SECRET,
  FIELD_DATA_MAX_HOUR: SERVER_SPECS.FIELD_DATA_MAX_HOUR,
  FIELD_DATA_MAX: SERVER_SPECS.FIELD_DATA_MAX,
  FIELD_DATA_BUFFER: SERVER_SPECS.FIELD_DATA_BUFFER,
  FIELD_DATA_RETENTION_DAYS: SERVER_SPECS.FIELD_DATA_RETENTION_DAYS,
  TRUSTED_PROXIES: SERVER_SPECS.TRUSTED_PROXIES,
  RELEASES_DIR: SERVER_SPECS.RELEASES_DIR,
  DOCUMENTS_DIR: SERVER_SPECS.DOCUMENTS_DIR,
  DATABASE_URL: SERVER_SPECS.DATABASE_URL,
  RELEASES_BUCKET: SERVER_SPECS.RELEASES_BUCKET,
  REMOTES_FILE: SERVER_SPECS.REMOTES_FILE,
  METRICS_HOST: SERVER_SPECS.METRICS_HOST,
  METRICS_PORT: SERVER_SPECS.METRICS_PORT,
  LOG_LEVEL: SERVER_SPECS.LOG_LEVEL,
};

/**
 * The visitor nginx passes a request for: the address nginx saw, else (a request that did not come through the
 * generated configuration) the socket's.
 * @param {import('node:http').IncomingMessage} req
 */
function nginxClient(req) {
  const seen = req.headers['x-real-ip'];
  return {
    address: typeof seen === 'string' && seen !== '' ? seen : req.socket.remoteAddress,
    forwardedFor: req.headers['x-forwarded-for'],
  };
}

/**
 * Starts the collector; resolves once it and its metrics listen.
 * @param {{ COLLECTOR_PORT: number, FIELD_DATA_DIR?: string, FIELD_DATA_SECRET?: string, FIELD_DATA_MAX_HOUR?: number,
 *   FIELD_DATA_MAX?: number, FIELD_DATA_BUFFER?: number, FIELD_DATA_RETENTION_DAYS?: number, TRUSTED_PROXIES?: string, RELEASES_DIR?: string,
 *   DOCUMENTS_DIR?: string, DATABASE_URL?: string,
 *   RELEASES_BUCKET?: string, REMOTES_FILE?: string,
 *   METRICS_HOST: string, METRICS_PORT: number, LOG_LEVEL: string }} config the environment's (SPECS), or a test's
 */
async function startCollector(config) {
  const logger = createLogger({ level: config.LOG_LEVEL });
  const metrics = createMetrics();
  const shell = deployables.find((deployable) => deployable.role === 'host');
  const remotes = createRemotesFile(
    config.REMOTES_FILE ?? path.join(/** @type {NonNullable<typeof shell>} */ (shell).dir, 'dist', 'remotes.json'),
  );
  const releasesDir = storeDir(config.RELEASES_DIR);
  const storeSync = startStoreSync(config, releasesDir, logger, {
    // A reload that fails is tried again at the next look at the store (every 5 s at most), until one succeeds.
    onCanaryChange: async () => {
      await reloadNginx(releasesDir, { timeoutMs: RETRIED_RELOAD_TIMEOUT_MS }).catch((/** @type {Error} */ error) => {
        logger.error({ problem: error.message }, 'nginx not reloaded after a canary changed: trying again');
        throw error;
      });
    },
  });
  /** @type {ReturnType<typeof startDocumentFiles> | undefined} */
  let documents;
  // A collector that fails to start stops its sync too: nothing of it keeps running, or retrying, behind the error.
  try {
    // nginx's configuration is generated from the store as the node has it (the live releases' page queries): the
    // collector starts once its first sync was tried.
    await storeSync?.ready;
    const builds = pollLiveBuilds({ remotes });
    await builds.refresh();
    const copy = storeSync ? storeCopyReader(releasesDir) : undefined;
    if (copy) metrics.watchStoreCopy(copy);
    const readiness = createReadiness({
      remotes,
      remoteNames,
      builds: builds.liveBuilds,
      storeCopy: copy,
    });
    const collector = createFieldCollector({
      ...fieldDataOptions(config),
      storeDir: releasesDir,
      liveBuilds: builds.liveBuilds,
      metrics,
      logger,
    });
    // Browser reports nginx passes on (it limits each client first): counted and logged here, as the built-in
    // server does, each client's budget by the address nginx saw.
    const reports = createReportsEndpoint({
      logger,
      metrics,
      labels: createFieldLabels({ storeDir: releasesDir, liveBuilds: builds.liveBuilds }),
      clientOf: (req) => nginxClient(req).address ?? '',
    });
    const vouched = createVouchedRemotes({
      remotes,
      releasesDir,
      logger,
    });
    // nginx's documents for everyone, composed here whenever what they are made of changes (documentFiles.js).
    const canaries =
      releasesDir === undefined
        ? undefined
        : createCanaries({
            storeDir: releasesDir,
            remoteNames: [...remoteNames],
            onProblem: (remote, problem) => logger.warn({ remote, problem }, 'canary state unusable: everyone on live'),
          });
    documents =
      config.DOCUMENTS_DIR === undefined
        ? undefined
        : startDocumentFiles({
            dir: path.resolve(config.DOCUMENTS_DIR),
            remotes,
            routes: pages.map(({ route, remote }) => ({ route, remote })),
            canaries: canaries && (() => canaries.shares()),
            vouchedFragments: vouched.serverRendered,
            events: fragmentEvents({ metrics, logger }),
            metrics,
            logger,
          });
    await documents?.ready;
    const handler = createRouteHandler({
      name: 'collector',
      logger,
      metrics,
      routes: [
        {
          label: 'reports',
          path: is(REPORTS_PATH),
          methods: ['POST'],
          handle: (req, res, { observed }) => reports(req, res, observed),
        },
        {
          label: 'field-data',
          path: is(FIELD_DATA_PATH),
          methods: ['POST'],
          quiet: true,
          handle: (req, res) => collector.receive(req, res),
        },
        {
          // nginx's include for a private document: its token, signed here, where the key is, for whom nginx says
          // the document is (a preview, or a canary's side; anything else is a preview's), and for the visitor's network:
          // nginx passes the address it saw (X-Real-IP) and the X-Forwarded-For it was sent, and TRUSTED_PROXIES here
          // says which of it to believe, as the built-in server does with its own socket's.
          label: 'field-token',
          path: is(FIELD_TOKEN_PATH),
          handle: (req, res) => {
            const cohort = new URL(req.url ?? '/', 'http://collector').searchParams.get('cohort') ?? '';
            const token = collector.issueToken(COHORT.test(cohort) ? cohort : 'preview', nginxClient(req));
            return sendText(req, res, 'text/html', fieldTokenTag(token), 'no-store');
          },
        },
        {
          label: 'healthz',
          path: is(HEALTH_PATH),
          handle: (req, res) => sendText(req, res, 'text/plain', 'ok\n', 'no-store'),
        },
        remotesJsonRoute(vouched, (req) => choiceFromHeaders(req.headers, remoteNames)),
        // nginx's fragment relay asks here for the server-rendered files it includes: a release's only as recorded.
        ...(releasesDir === undefined
          ? []
          : [
              storeFragmentsRoute({
                remotes,
                releasesDir,
                remoteNames,
                vouched,
                events: fragmentEvents({ metrics, logger }),
              }),
            ]),
        // nginx passes the node's /readyz here.
        ...readinessRoutes(readiness),
      ],
    });
    const server = createHttpServer(Object.assign(handler, { close: () => collector.flush() }));
    // Loopback only: nginx on this node is its one client.
    await listen(server, config.COLLECTOR_PORT, 'collector', '127.0.0.1');
    const metricsServer = await startMetricsServer(metrics, { host: config.METRICS_HOST, port: config.METRICS_PORT });
    const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
    logger.info({ url: `http://127.0.0.1:${port}${FIELD_DATA_PATH}`, metrics: metricsServer.url }, 'collecting');
    return {
      port,
      metricsUrl: metricsServer.url,
      /** Reads the remotes' live builds now (they are read every few seconds; a test need not wait for that). */
      refreshBuilds: builds.refresh,
      async stop() {
        builds.stop();
        await Promise.all([close(server), metricsServer.stop(), storeSync?.stop(), documents?.stop()]);
        logger.flush();
      },
    };
  } catch (error) {
    await Promise.all([storeSync?.stop(), documents?.stop()]);
    throw error;
  }
}

if (require.main === module) {
  const config = configOrExit(() => readEnv(SPECS, process.env));
  startCollector(config).then(
    (collector) => {
      const stop = () => collector.stop().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (error) => {
      console.error(`Could not start the collector: ${error.message}`);
      process.exit(1);
    },
  );
}

module.exports = { startCollector };

// The deploy API as a process: its configuration, the store and the tokens it reads, its HTTP server. The store is the
// one the release commands open (PostgreSQL with a bucket, or the folder RELEASES_DIR, every nginx serving it reloaded
// after a canary's change); the tokens are kept beside it (tokens/tokenStore.js).
const http = require('node:http');
const os = require('node:os');
const { listen, drain, close } = require('@nativegtm/server/httpServer');
const { createLogger } = require('@nativegtm/server/observability/logger');
const { parseTrustedProxies } = require('@nativegtm/server/fieldData/clientNetwork');
const { reloadNginx } = require('@nativegtm/server/nginxReload');
const { storeDir } = require('@nativegtm/server/storeDir');
const { openFolderStore } = require('@nativegtm/store/folderStore');
const { openPostgresStore } = require('@nativegtm/store/postgres/postgresStore');
const { openDatabase } = require('@nativegtm/store/postgres/database');
const { gateFor } = require('@nativegtm/tools/releases/gateFor');
const { startMetricsServer } = require('@nativegtm/server/observability/metricsServer');
const { fieldDataDir } = require('@nativegtm/server/fieldData/recordStore');
const { openFieldRecords } = require('@nativegtm/server/fieldData/fieldRecords');
const { remoteNames } = require('@nativegtm/contract/remotes');
const { repoRoot } = require('@nativegtm/server/deployables');
const { createCanaryRuns } = require('./canaryRuns');
const { createDeployApi } = require('./api');
const { createDeployMetrics } = require('./metrics');
const { trustIn } = require('./config');
const { oidcVerifier } = require('./oidc');
const { pathHider } = require('./serverPaths');
const { folderTokenStore, postgresTokenStore } = require('./tokens/tokenStore');

/** How long a request may take to arrive whole: an archive of 50 MB from a slow runner. */
const REQUEST_TIMEOUT_MS = 5 * 60_000;

/**
 * The store and the tokens the configuration names.
 * @param {import('./config').DeployConfig} config
 */
function openStores(config) {
  const dir = storeDir(config.RELEASES_DIR);
  if (config.DATABASE_URL && config.RELEASES_BUCKET) {
    const store = openPostgresStore({ databaseUrl: config.DATABASE_URL, bucketUrl: config.RELEASES_BUCKET });
    return {
      dir,
      store,
      tokens: postgresTokenStore(openDatabase(config.DATABASE_URL), 'the database (deploy_tokens)'),
    };
  }
  return {
    dir,
    store: { ...openFolderStore(dir, { onCanaryChange: async () => void (await reloadNginx(dir)) }), close: undefined },
    tokens: folderTokenStore(dir),
  };
}

/**
 * Starts the deploy API; resolves once it listens.
 * @param {import('./config').DeployConfig} config
 * @param {{ logger?: import('@nativegtm/server/observability/logger').Logger, now?: () => Date }} [options]
 */
async function startDeployApi(config, { logger = createLogger({ level: config.LOG_LEVEL }), now } = {}) {
  const { dir, store, tokens } = openStores(config);
  const trusted = config.DEPLOY_TRUST_FILE === undefined ? undefined : trustIn(config.DEPLOY_TRUST_FILE);
  const metrics = createDeployMetrics();
  const fieldDir = fieldDataDir(config.FIELD_DATA_DIR);
  const fieldRecords = openFieldRecords({ dir: fieldDir, databaseUrl: config.DATABASE_URL });
  const canaries = createCanaryRuns({ fieldRecords, logger, metrics });
  /** @type {(remote: string, actor: import('@nativegtm/store/actor').Actor) => import('@nativegtm/store/remoteStore').RemoteStore} */
  const openRemote = (remote, actor) => store.remote(remote, { actor });
  const api = createDeployApi({
    openRemote,
    canaries,
    fieldRecords,
    tokens,
    oidc: trusted && oidcVerifier(trusted, { cooldownMs: config.DEPLOY_JWKS_COOLDOWN_MS }),
    gate: (remote, skip) => gateFor({ skip, storeDir: dir, remote, chromiumPath: config.CHROME_PATH }),
    trust: parseTrustedProxies(config.TRUSTED_PROXIES),
    limits: { maxBytes: config.DEPLOY_MAX_ARCHIVE_BYTES, maxEntries: config.DEPLOY_MAX_ARCHIVE_ENTRIES },
    bodyIdleMs: config.DEPLOY_BODY_IDLE_MS,
    failuresPerMinute: config.DEPLOY_AUTH_FAILURES,
    logger,
    metrics,
    hidePaths: pathHider({
      store: dir,
      'field data': fieldDir,
      scratch: os.tmpdir(),
      install: repoRoot,
      home: os.homedir(),
      browser: config.CHROME_PATH,
    }),
    now,
  });
  const server = http.createServer({ requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: 10_000 }, api.handler);
  await listen(server, config.DEPLOY_API_PORT, 'the deploy API', config.DEPLOY_API_HOST);
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const metricsServer = await startMetricsServer(metrics, {
    host: config.DEPLOY_METRICS_HOST,
    port: config.DEPLOY_METRICS_PORT,
  }).catch(async (error) => {
    await close(server);
    throw error;
  });
  logger.info({ port: address.port, host: config.DEPLOY_API_HOST, metrics: metricsServer.url }, 'deploy API listening');
  canaries.watch({
    openRemote,
    remotes: remoteNames,
    everyMs: config.DEPLOY_CANARY_LOOK_MS,
  });
  const closeStores = async () => {
    // The canaries it drives stop at their next wait; each stays at its share until a deploy API on the store (this
    // one restarted, or another node's) carries it on once its lease runs out.
    await canaries.stop();
    await fieldRecords.close();
    await metricsServer.stop();
    await tokens.close();
    await store.close?.();
  };
  return {
    port: address.port,
    metricsUrl: metricsServer.url,
    /** Stops taking requests; those under way finish (a gate, a publish), then the stores close. */
    drain: async () => {
      await drain(server);
      await closeStores();
    },
    close: async () => {
      await close(server);
      await closeStores();
    },
  };
}

module.exports = { startDeployApi };

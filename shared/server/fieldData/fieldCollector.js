// The field-data endpoint with everything it needs, as both servers run it: the built-in shell server in each worker,
// and the collector process beside nginx (commands/collect.js).
const { createFieldDataEndpoint } = require('./fieldDataEndpoint');
const { createFieldLabels } = require('./fieldLabels');
const { createFieldTokens, tokenKey } = require('./fieldTokens');
const { openFieldRecordSink } = require('./fieldRecords');
const { fieldDataDir } = require('./recordStore');
const { createTokenRates } = require('./tokenRates');
const { DEFAULT_TRUSTED_PROXIES, clientNetwork, parseTrustedProxies } = require('./clientNetwork');
const { canaryKey, runningCanary } = require('@nativegtm/store/canaryInStore');
const { storeLayout } = require('@nativegtm/store/layout');

/**
 * Where field data is kept and how: what a server's configuration says of it.
 * @typedef {{ dir: string, databaseUrl?: string, secret?: string, maxPerHour?: number, maxTotal?: number,
 *   bufferRecords?: number, retentionDays?: number, trustedProxies?: string }} FieldDataOptions
 *   dir: the record store (FIELD_DATA_DIR); databaseUrl: DATABASE_URL, whose database keeps the records instead;
 *   secret: FIELD_DATA_SECRET; maxPerHour, maxTotal: the folder's byte budget (FIELD_DATA_MAX_HOUR, FIELD_DATA_MAX;
 *   storeBudget.js's defaults unless given); bufferRecords: what a process holds while the database cannot take its
 *   records (FIELD_DATA_BUFFER); retentionDays: FIELD_DATA_RETENTION_DAYS; trustedProxies: TRUSTED_PROXIES
 */

/**
 * What a server's configuration says of field data, as both servers take it.
 * @param {{ FIELD_DATA_DIR?: string, DATABASE_URL?: string, FIELD_DATA_SECRET?: string, FIELD_DATA_MAX_HOUR?: number,
 *   FIELD_DATA_MAX?: number, FIELD_DATA_BUFFER?: number, FIELD_DATA_RETENTION_DAYS?: number,
 *   TRUSTED_PROXIES?: string }} config
 * @returns {FieldDataOptions}
 */
function fieldDataOptions(config) {
  return {
    dir: fieldDataDir(config.FIELD_DATA_DIR),
    databaseUrl: config.DATABASE_URL,
    secret: config.FIELD_DATA_SECRET,
    maxPerHour: config.FIELD_DATA_MAX_HOUR,
    maxTotal: config.FIELD_DATA_MAX,
    bufferRecords: config.FIELD_DATA_BUFFER,
    retentionDays: config.FIELD_DATA_RETENTION_DAYS,
    trustedProxies: config.TRUSTED_PROXIES,
  };
}

/**
 * A request's client as the collector is told it: the peer's address, and its X-Forwarded-For.
 * @typedef {{ address: string | undefined, forwardedFor: string | string[] | undefined }} Client
 */

/**
 * @param {FieldDataOptions & { storeDir?: string, liveBuilds: () => Map<string, string>,
 *   metrics?: import('../observability/metrics').Metrics, logger: import('../observability/logger').Logger,
 *   unsignedPerSecond?: number }} options
 *   storeDir: the release store, if any; liveBuilds: each remote's build served live
 */
function createFieldCollector({
  secret,
  trustedProxies = DEFAULT_TRUSTED_PROXIES,
  storeDir,
  liveBuilds,
  metrics,
  logger,
  unsignedPerSecond,
  ...kept
}) {
  // kept: where records are kept, and how (fieldRecords.js).
  const tokens = createFieldTokens({ key: tokenKey({ dir: kept.dir, secret }) });
  const trust = parseTrustedProxies(trustedProxies);
  const labels = createFieldLabels({ storeDir, liveBuilds });
  /** @type {Map<string, () => import('@nativegtm/store/canaryInStore').CanaryState | undefined>} */
  const canaries = new Map();
  /**
   * The key of the remote's running canary, if any: read from the store (at most every 200 ms per remote), for the
   * remotes the site has only.
   * @param {string} remote
   */
  function canaryOf(remote) {
    if (storeDir === undefined || labels.remote(remote) !== remote) return undefined;
    let running = canaries.get(remote);
    if (!running) {
      running = runningCanary(storeLayout(storeDir, remote));
      canaries.set(remote, running);
    }
    const state = running();
    return state && canaryKey(state);
  }
  const sink = openFieldRecordSink({ ...kept, metrics, logger });
  const receive = createFieldDataEndpoint({
    labels,
    tokens,
    writer: sink,
    metrics,
    budget: sink,
    tokenRates: createTokenRates(),
    unsignedPerSecond,
  });
  return {
    receive,
    /**
     * Signs a private document's token: for whom, from which network, and, for a side of a canary, which canary.
     * @param {string} cohort who the document is for (@nativegtm/contract/fieldData COHORT)
     * @param {Client} client
     */
    issueToken(cohort, client) {
      const side = /^(?:canary|control):(.+)$/.exec(cohort);
      const canary = side ? canaryOf(/** @type {string} */ (side[1])) : undefined;
      return tokens.issue({ cohort, network: clientNetwork(client, trust), canary });
    },
    /**
     * Keeps what the server saw of a document it served to a side of a canary of its page's remote (the canary's
     * fragment signal): one record, under the document's token.
     * @param {{ token: string, route: string, remote: string, cohort: string, failed: boolean }} document
     */
    recordDocument({ token, route, remote, cohort, failed }) {
      const proof = tokens.verify(token);
      if (!proof) return;
      /** @type {import('./recordStore').DocumentRecord} */
      const record = {
        t: Date.now(),
        type: 'document',
        route,
        remote,
        cohort,
        doc: proof.doc,
        seq: 0,
        signed: true,
        net: proof.net,
        canary: proof.canary,
        fragment: failed ? 'failed' : 'ok',
      };
      // Past the budget it is dropped like a beacon's (and the drop marked for the canary).
      if (!sink.admit()) return;
      // The sink stores any record as it is; this one is not a beacon's.
      sink.write([/** @type {any} */ (record)]);
    },
    /**
     * Writes out the records still buffered (when the server closes, before a draining worker exits); on a database,
     * resolves once it took them or refused them.
     */
    flush: async () => sink.flush(),
  };
}

/** @typedef {ReturnType<typeof createFieldCollector>} FieldCollector */

module.exports = { createFieldCollector, fieldDataOptions };

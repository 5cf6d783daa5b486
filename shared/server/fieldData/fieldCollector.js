// The field-data endpoint with everything it needs, as both servers run it: the built-in shell server in each worker,
// and the collector process beside nginx (commands/collect.js).
const { createFieldDataEndpoint } = require('./fieldDataEndpoint');
const { createFieldLabels } = require('./fieldLabels');
const { createFieldTokens, tokenKey } = require('./fieldTokens');
const { createRecordWriter, writerName } = require('./recordStore');
const { createStoreBudget } = require('./storeBudget');
const { createTokenRates } = require('./tokenRates');

/**
 * Where field data is kept and how: what a server's configuration says of it.
 * @typedef {{ dir: string, secret?: string, maxPerHour?: number, maxTotal?: number }} FieldDataOptions
 *   dir: the record store (FIELD_DATA_DIR); secret: FIELD_DATA_SECRET; maxPerHour, maxTotal: the store's byte budget
 *   (FIELD_DATA_MAX_HOUR, FIELD_DATA_MAX; storeBudget.js's defaults unless given)
 */

/**
 * @param {FieldDataOptions & { storeDir?: string, liveBuilds: () => Map<string, string>,
 *   metrics?: import('../observability/metrics').Metrics, logger: import('../observability/logger').Logger,
 *   unsignedPerSecond?: number }} options
 *   storeDir: the release store, if any; liveBuilds: each remote's build served live
 */
function createFieldCollector({
  dir,
  secret,
  maxPerHour,
  maxTotal,
  storeDir,
  liveBuilds,
  metrics,
  logger,
  unsignedPerSecond,
}) {
  const tokens = createFieldTokens({ key: tokenKey({ dir, secret }) });
  const onError = (/** @type {Error} */ error) => logger.error({ err: error }, 'field data could not be written');
  const budget = createStoreBudget({ dir, name: writerName(), hourBytes: maxPerHour, totalBytes: maxTotal, onError });
  const writer = createRecordWriter({ dir, onError, budget });
  const receive = createFieldDataEndpoint({
    labels: createFieldLabels({ storeDir, liveBuilds }),
    tokens,
    writer,
    metrics,
    budget,
    tokenRates: createTokenRates(),
    unsignedPerSecond,
  });
  return {
    receive,
    /**
     * Signs a private document's token.
     * @param {string} cohort who the document is for (@nativegtm/contract/fieldData COHORT)
     */
    issueToken: (cohort) => tokens.issue(cohort),
    /**
     * Keeps what the server saw of a document it served to a side of a canary of its page's remote (the canary's
     * fragment signal): one record, under the document's token.
     * @param {{ token: string, route: string, remote: string, cohort: string, failed: boolean }} document
     */
    recordDocument({ token, route, remote, cohort, failed }) {
      /** @type {import('./recordStore').DocumentRecord} */
      const record = {
        t: Date.now(),
        type: 'document',
        route,
        remote,
        cohort,
        doc: /** @type {string} */ (token.split('.')[0]),
        seq: 0,
        signed: true,
        fragment: failed ? 'failed' : 'ok',
      };
      // Past the budget it is dropped like a beacon's (and the drop marked for the canary).
      if (!budget.admit()) return;
      // The writer stores any record as one line; this one is not a beacon's.
      writer.write([/** @type {any} */ (record)]);
    },
    /** Writes out the records still buffered (when the server closes, before a draining worker exits). */
    flush: () => writer.flush(),
  };
}

/** @typedef {ReturnType<typeof createFieldCollector>} FieldCollector */

module.exports = { createFieldCollector };

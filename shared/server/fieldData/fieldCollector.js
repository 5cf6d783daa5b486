// The field-data endpoint with everything it needs, as both servers run it: the built-in shell server in each worker,
// and the collector process beside nginx (commands/collect.js).
const { createFieldDataEndpoint } = require('./fieldDataEndpoint');
const { createFieldLabels } = require('./fieldLabels');
const { createFieldTokens, tokenKey } = require('./fieldTokens');
const { createRecordWriter } = require('./recordStore');
const { createTokenRates } = require('./tokenRates');

/**
 * @param {{ dir: string, secret?: string, storeDir?: string, liveBuilds: () => Map<string, string>,
 *   metrics?: import('../observability/metrics').Metrics, logger: import('../observability/logger').Logger,
 *   unsignedPerSecond?: number }} options
 *   dir: the record store (FIELD_DATA_DIR); secret: FIELD_DATA_SECRET; storeDir: the release store, if any;
 *   liveBuilds: each remote's build served live
 */
function createFieldCollector({ dir, secret, storeDir, liveBuilds, metrics, logger, unsignedPerSecond }) {
  const tokens = createFieldTokens({ key: tokenKey({ dir, secret }) });
  const writer = createRecordWriter({
    dir,
    onError: (error) => logger.error({ err: error }, 'field data could not be written'),
  });
  const receive = createFieldDataEndpoint({
    labels: createFieldLabels({ storeDir, liveBuilds }),
    tokens,
    writer,
    metrics,
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
      // The writer stores any record as one line; this one is not a beacon's.
      writer.write([/** @type {any} */ (record)]);
    },
    /** Writes out the records still buffered (when the server closes, before a draining worker exits). */
    flush: () => writer.flush(),
  };
}

/** @typedef {ReturnType<typeof createFieldCollector>} FieldCollector */

module.exports = { createFieldCollector };

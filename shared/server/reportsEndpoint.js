// POST /_reports on the shell's origin: CSP violation reports and the shell's reports of a remote that failed, or of a
// remote's file it refused for its bytes (@nativegtm/contract/reports). Anyone can post here, so the endpoint is built for abuse: bodies over
// MAX_REPORT_BYTES are refused unread or cut off at the limit (raw-body), each client address gets a small budget of
// reports (a token bucket), the answer is always an empty status (input is never echoed), and what is logged is only
// the known fields, cut short.
const { LRUCache } = require('lru-cache');
const getRawBody = require('raw-body');
const { MAX_REPORT_BYTES, parseReports } = require('@nativegtm/contract/reports');

/** @typedef {import('./observability/logger').Logger} Logger */
/** @typedef {import('./observability/metrics').Metrics} Metrics */

/** Client addresses remembered at most: an attacker with many addresses cannot grow memory without bound. */
const MAX_CLIENTS = 10_000;

/**
 * @param {{ logger: Logger, metrics?: Metrics, labels?: import('./fieldData/fieldLabels').FieldLabels, burst?: number,
 *   perMinute?: number, now?: () => number, clientOf?: (req: import('node:http').IncomingMessage) => string }} options
 *   labels: what a report's remote and build may be counted as (the remotes and releases the site knows, else
 *   "other"), so that no report makes a new series; burst: reports a client may send at once; perMinute: how fast its
 *   budget refills; clientOf: whose budget a request spends (its connection's address, unless a proxy in front says)
 */
function createReportsEndpoint({
  logger,
  metrics,
  labels,
  burst = 20,
  perMinute = 60,
  now = Date.now,
  clientOf = (req) => req.socket.remoteAddress ?? '',
}) {
  /** Each client's budget; the least recently seen client goes first when the cache is full. */
  /** @type {LRUCache<string, { tokens: number, at: number }>} */
  const clients = new LRUCache({ max: MAX_CLIENTS });

  /** @param {string} client */
  function allowed(client) {
    const time = now();
    const last = clients.get(client) ?? { tokens: burst, at: time };
    const tokens = Math.min(burst, last.tokens + ((time - last.at) / 60_000) * perMinute);
    clients.set(client, { tokens: Math.max(0, tokens - 1), at: time });
    return tokens >= 1;
  }

  /**
   * @param {import('node:http').ServerResponse} res
   * @param {number} status
   * @param {Record<string, string>} [headers]
   */
  function answer(res, status, headers = {}) {
    res.statusCode = status;
    res.setHeader('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.end();
  }

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {{ id: string }} observed
   */
  return function receive(req, res, observed) {
    // Closes the connection after a refusal: the rest of the body is not read.
    const refuse = (/** @type {number} */ status, /** @type {Record<string, string>} */ headers = {}) => {
      metrics?.report('unknown', 'rejected');
      answer(res, status, { ...headers, Connection: 'close' });
    };
    const declared = req.headers['content-length'];
    // Before the client's budget is spent: a body declared too large is refused unread.
    if (Number(declared ?? 0) > MAX_REPORT_BYTES) return refuse(413);
    if (!allowed(clientOf(req))) return refuse(429, { 'Retry-After': '60' });
    // raw-body stops reading at the limit, and refuses a body whose length is not the one declared.
    return getRawBody(req, { limit: MAX_REPORT_BYTES, length: declared, encoding: 'utf-8' }).then(
      (body) => {
        const reports = parseReports(String(req.headers['content-type'] ?? ''), body);
        if (!reports) {
          metrics?.report('unknown', 'rejected');
          return answer(res, 400);
        }
        for (const report of reports) {
          metrics?.report(report.type, 'accepted');
          if (report.type === 'integrity-failure') {
            // A file someone may have changed where it is served: an alert, by remote and release.
            const remote = labels?.remote(report.remote) ?? 'other';
            metrics?.integrityFailure(remote, labels?.release(report.remote, report.build || undefined) ?? 'other');
            logger.error({ reqId: observed.id, report }, 'a browser refused a file for its integrity');
          } else {
            logger.warn({ reqId: observed.id, report }, 'browser report');
          }
        }
        return answer(res, 204);
      },
      (/** @type {getRawBody.RawBodyError} */ error) => {
        if (error.type === 'entity.too.large') return refuse(413);
        // The client went away, or sent less or more than it declared: there is no one to answer.
        return res.destroy();
      },
    );
  };
}

module.exports = { createReportsEndpoint };

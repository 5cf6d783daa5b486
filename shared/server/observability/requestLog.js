// One log line and one count per request, with a request id the response carries back (X-Request-Id), so a
// visitor's report, a proxy's log and this server's line can be matched. An id set by a proxy in front is kept when it
// is a plain token; anything else gets a fresh one.
const { randomUUID } = require('node:crypto');

/** @typedef {import('./logger').Logger} Logger */
/** @typedef {import('./metrics').Metrics} Metrics */

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Request targets are logged at most this long: the line stays a line. */
const MAX_LOGGED_TARGET = 512;

/**
 * @param {string | string[] | undefined} header
 * @returns {string}
 */
function requestId(header) {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * Starts observing one request; the handler names its route (a bounded label) once it knows it.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ server: string, logger: Logger, metrics?: Metrics }} options  server: the deployable's name
 * @returns {{ id: string, route: (label: string) => void }}
 */
function observeRequest(req, res, { server, logger, metrics }) {
  const id = requestId(req.headers['x-request-id']);
  const started = performance.now();
  let label = 'other';
  res.setHeader('X-Request-Id', id);
  let logged = false;
  /** @param {boolean} aborted */
  const done = (aborted) => {
    if (logged) return;
    logged = true;
    const status = aborted && !res.headersSent ? 499 : res.statusCode;
    metrics?.request(server, label, status);
    logger.info(
      {
        reqId: id,
        server,
        method: req.method,
        url: String(req.url).slice(0, MAX_LOGGED_TARGET),
        route: label,
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        ...(aborted ? { aborted: true } : {}),
      },
      'request',
    );
  };
  // 'finish': the whole response was handed to the socket; a 'close' before it: the client went away first.
  res.once('finish', () => done(false));
  res.once('close', () => done(!res.writableFinished));
  return {
    id,
    route(name) {
      label = name;
    },
  };
}

module.exports = { observeRequest, requestId };

// One log line and one count per request, with a request id the response carries back (X-Request-Id), so a visitor's
// report, a proxy's log and this server's line can be matched. An id set by a proxy in front is kept when it is a
// plain token; anything else gets a fresh one. The line's fields are the server's own, flat: reqId, server, method,
// url, route, status, ms, and aborted when the client left first.
//
// Written with pino itself, not pino-http: pino-http makes two child loggers per request (one of them binding the
// serialised request), whatever the level, for the `req.log` no handler here uses; that was 12 µs of a composed
// document's 85 µs on the built-in server (docs/performance.md#the-built-in-servers-request-path).
const { randomUUID } = require('node:crypto');

/** @typedef {import('./logger').Logger} Logger */
/** @typedef {import('./metrics').Metrics} Metrics */
/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

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
 * The status a request ended with: 499 when the client went away before the response began.
 * @param {ServerResponse} res
 */
function endStatus(res) {
  return !res.writableFinished && !res.headersSent ? 499 : res.statusCode;
}

/**
 * Calls `ended` once, when the response is finished (handed whole to the socket) or the client went away before it.
 * @param {ServerResponse} res
 * @param {() => void} ended
 */
function whenEnded(res, ended) {
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    ended();
  };
  res.once('finish', once);
  res.once('close', once);
}

/**
 * Observes every request of one server: `observe(req, res)` starts, and the handler names the request's route once
 * it knows it. The line is written, and the request counted, when the response is finished or the client leaves.
 * @param {{ server: string, logger: Logger, metrics?: Metrics }} options  server: the deployable's name
 * @returns {(req: IncomingMessage, res: ServerResponse) => { id: string, route: (label: string) => void }}
 */
function createRequestObserver({ server, logger, metrics }) {
  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {{ started: number, label: string }} observation
   */
  const line = (req, res, { started, label }) => ({
    server,
    method: req.method,
    url: String(req.url).slice(0, MAX_LOGGED_TARGET),
    route: label,
    status: endStatus(res),
    ms: Math.round((performance.now() - started) * 10) / 10,
    ...(res.writableFinished ? {} : { aborted: true }),
  });
  return (req, res) => {
    const observation = { started: performance.now(), label: 'other' };
    const id = requestId(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', id);
    whenEnded(res, () => {
      // Every request is an info line, a 500 included: errors are logged where they happen, with their cause.
      if (logger.isLevelEnabled('info')) logger.info({ reqId: id, ...line(req, res, observation) }, 'request');
      metrics?.request(server, observation.label, endStatus(res));
    });
    return {
      id,
      route(name) {
        observation.label = name;
      },
    };
  };
}

module.exports = { createRequestObserver, endStatus, requestId, whenEnded };

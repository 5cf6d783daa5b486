// How a deployable's server answers: a declared table of routes (shellServer.js, remoteServer.js), tried in order
// against the path as nginx reads it (requestTarget.js). The first route whose path matches decides: it answers, or
// says 405 when the method is not one of its own. Every request is observed (one log line, one count, an id) and
// carries the common security headers; a request Node or a handler refuses ends that response with 400, never the
// server.
//
// A router package (find-my-way) was considered: the routes here are a handful of exact paths, one prefix and two
// catch-alls decided by the file extension, matched on a path read the way nginx reads it, not the way a router
// decodes it, so a table and a loop say it more plainly than a router's pattern syntax would.
const { COMMON_HEADERS } = require('./securityHeaders');
const { requestTarget } = require('./requestTarget');
const { silentLogger } = require('./observability/logger');
const { createRequestObserver, endStatus } = require('./observability/requestLog');

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {ReturnType<ReturnType<typeof createRequestObserver>>} Observed */

/**
 * @typedef {object} Route
 * @property {string} label the route's name in logs and metrics (a bounded set)
 * @property {(pathname: string) => boolean} path which paths it answers
 * @property {string[]} [methods] GET and HEAD unless given
 * @property {boolean} [quiet] its requests are counted, with no log line, id or child logger: thousands a second, all
 *   alike (field-data beacons), where the request log would be a third of each one's cost
 * @property {(req: IncomingMessage, res: ServerResponse, request: { pathname: string, observed: Observed }) => void}
 *   handle
 */

const READ = ['GET', 'HEAD'];

/** @param {string} exact */
const is = (exact) => (/** @type {string} */ pathname) => pathname === exact;

/** @param {string} prefix */
const under = (prefix) => (/** @type {string} */ pathname) => pathname.startsWith(prefix);

const anyPath = () => true;

/**
 * @param {{ name: string, routes: Route[], logger?: import('./observability/logger').Logger,
 *   metrics?: import('./observability/metrics').Metrics,
 *   before?: (req: IncomingMessage, res: ServerResponse, observed: Observed) => boolean }} options
 *   name: the deployable's, in logs and metrics; before: runs first for every request, and answers it when it
 *   returns true (a CORS preflight)
 * @returns {(req: IncomingMessage, res: ServerResponse) => unknown}
 */
function createRouteHandler({ name, routes, logger = silentLogger(), metrics, before }) {
  const observe = createRequestObserver({ server: name, logger, metrics });

  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {Observed} observed
   */
  function route(req, res, observed) {
    for (const [header, value] of Object.entries(COMMON_HEADERS)) res.setHeader(header, value);
    if (before?.(req, res, observed)) return undefined;
    // A server's request always has a target: only a client's response leaves url unset.
    const { pathname } = requestTarget(/** @type {string} */ (req.url));
    const chosen = routes.find((candidate) => candidate.path(pathname));
    if (!chosen) throw new Error(`no route answers ${pathname}`);
    const methods = chosen.methods ?? READ;
    if (!methods.includes(String(req.method))) {
      observed.route('method-not-allowed');
      res.statusCode = 405;
      res.setHeader('Allow', methods.join(', '));
      return res.end();
    }
    observed.route(chosen.label);
    return chosen.handle(req, res, { pathname, observed });
  }

  const hasQuiet = routes.some((candidate) => candidate.quiet);

  /**
   * Answers the request if it is a quiet route's, counting it when it ends; false when it is not.
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   */
  function quietly(req, res) {
    let pathname;
    try {
      ({ pathname } = requestTarget(/** @type {string} */ (req.url)));
    } catch {
      return false;
    }
    const chosen = routes.find((candidate) => candidate.path(pathname));
    if (!chosen?.quiet || !(chosen.methods ?? READ).includes(String(req.method))) return false;
    let counted = false;
    const count = () => {
      if (counted) return;
      counted = true;
      metrics?.request(name, chosen.label, endStatus(res));
    };
    res.once('finish', count);
    res.once('close', count);
    for (const [header, value] of Object.entries(COMMON_HEADERS)) res.setHeader(header, value);
    chosen.handle(req, res, { pathname, observed: { id: '', route: () => {} } });
    return true;
  }

  return (req, res) => {
    if (hasQuiet && quietly(req, res)) return undefined;
    const observed = observe(req, res);
    try {
      return route(req, res, observed);
    } catch (error) {
      // What route() throws comes from Node's and sirv's own checks of the request: always an Error.
      observed.route('bad-request');
      logger.warn({ reqId: observed.id, reason: /** @type {Error} */ (error).message }, 'request refused');
      if (!res.headersSent) {
        res.statusCode = 400;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      }
      return res.end('Bad request\n');
    }
  };
}

/**
 * A short text answer, always revalidated unless told otherwise.
 * @param {IncomingMessage} req
 * @param {ServerResponse} res
 * @param {string} type
 * @param {string} text
 * @param {string} [cacheControl]
 */
function sendText(req, res, type, text, cacheControl = 'no-cache') {
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Cache-Control', cacheControl);
  res.end(req.method === 'HEAD' ? undefined : text);
}

module.exports = { anyPath, createRouteHandler, is, sendText, under };

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
const { createRequestObserver, endStatus, whenEnded } = require('./observability/requestLog');

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
 * @property {(req: IncomingMessage, res: ServerResponse,
 *   request: { pathname: string, search: string, observed: Observed }) => void} handle
 *   search: the raw query, with its "?" (or empty)
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
   * The route that answers a request's path, or why none can (a target Node or requestTarget refuses).
   * @param {IncomingMessage} req
   * @returns {{ pathname: string, search: string, chosen: Route } | { error: Error }}
   */
  function match(req) {
    try {
      // A server's request always has a target: only a client's response leaves url unset.
      const { pathname, search } = requestTarget(/** @type {string} */ (req.url));
      const chosen = routes.find((candidate) => candidate.path(pathname));
      if (!chosen) throw new Error(`no route answers ${pathname}`);
      return { pathname, search, chosen };
    } catch (error) {
      return { error: /** @type {Error} */ (error) };
    }
  }

  /**
   * @param {Route} chosen
   * @param {IncomingMessage} req
   */
  const allows = (chosen, req) => (chosen.methods ?? READ).includes(String(req.method));

  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {Observed} observed
   * @param {ReturnType<typeof match>} matched
   */
  function route(req, res, observed, matched) {
    for (const [header, value] of Object.entries(COMMON_HEADERS)) res.setHeader(header, value);
    if (before?.(req, res, observed)) return undefined;
    if ('error' in matched) throw matched.error;
    const { pathname, search, chosen } = matched;
    if (!allows(chosen, req)) {
      observed.route('method-not-allowed');
      res.statusCode = 405;
      res.setHeader('Allow', (chosen.methods ?? READ).join(', '));
      return res.end();
    }
    observed.route(chosen.label);
    return chosen.handle(req, res, { pathname, search, observed });
  }

  /**
   * A quiet route's request: counted when it ends, with no log line or id.
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {{ pathname: string, search: string, chosen: Route }} matched
   */
  function quietly(req, res, { pathname, search, chosen }) {
    whenEnded(res, () => metrics?.request(name, chosen.label, endStatus(res)));
    for (const [header, value] of Object.entries(COMMON_HEADERS)) res.setHeader(header, value);
    chosen.handle(req, res, { pathname, search, observed: { id: '', route: () => {} } });
  }

  return (req, res) => {
    const matched = match(req);
    if ('chosen' in matched && matched.chosen.quiet && allows(matched.chosen, req)) return quietly(req, res, matched);
    const observed = observe(req, res);
    try {
      return route(req, res, observed, matched);
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

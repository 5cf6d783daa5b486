// A page remote's production server: its files for the shell (and any other origin) to load, with the caching and
// CORS rules federated assets need, and, when the release store has releases of it, its live release first
// (releases/remoteFiles.js). Its routes: /healthz, then every path a file.
const path = require('node:path');
const { htmlHeaders } = require('./securityHeaders');
const { createHttpServer } = require('./httpServer');
const { HEALTH_PATH } = require('./healthPaths');
const { silentLogger } = require('./observability/logger');
const { createRemoteFiles } = require('./releases/remoteFiles');
const { anyPath, createRouteHandler, is, sendText } = require('./routeTable');
const { guardedFiles, staticFiles } = require('./staticFiles');

/**
 * @typedef {{ root: string, name?: string, logger?: import('./observability/logger').Logger,
 *   metrics?: import('./observability/metrics').Metrics,
 *   releases?: import('@nativegtm/store/layout').StoreLayout }} RemoteServerOptions
 *   root: its dist/; name: the deployable's, in logs and metrics; logger: where request lines go (nowhere unless
 *   given); metrics: where requests are counted; releases: its folder in the release store, whose live release it
 *   serves first
 */

/** A remote's own documents (the page alone, for its team) allow nothing but its own origin. */
const REMOTE_DOCUMENT_HEADERS = htmlHeaders([]);

/** @param {RemoteServerOptions} options */
function createRemoteHandler({ root, name = 'remote', logger = silentLogger(), metrics, releases }) {
  /** @param {string} dir @param {{ immutable?: boolean, notFound?: boolean }} [options] */
  const files = (dir, options = {}) => staticFiles(dir, { ...options, documentHeaders: () => REMOTE_DOCUMENT_HEADERS });
  const dist = files(root, { notFound: true });
  const remoteFiles =
    releases &&
    createRemoteFiles({
      layout: releases,
      dist,
      files,
      onProblem: (problem, keeping) =>
        logger.error({ remote: name, problem, keeping: keeping ?? 'dist/' }, 'live pointer ignored'),
      onChange: (release) => logger.info({ remote: name, release: release ?? 'dist/' }, 'live release'),
    });
  const serveFile = guardedFiles(remoteFiles ? remoteFiles.serve : dist, (file) => logger.warn(file, 'file vanished'));

  /** @type {import('./routeTable').Route[]} */
  const routes = [
    // For load balancers and orchestrators: the process serves (never cached on the way).
    {
      label: 'healthz',
      path: is(HEALTH_PATH),
      handle: (req, res) => sendText(req, res, 'text/plain', 'ok\n', 'no-store'),
    },
    { label: 'asset', path: anyPath, handle: serveFile },
  ];

  return createRouteHandler({
    name,
    routes,
    logger,
    metrics,
    // Other origins (the shell's) load the manifest and chunks: every answer says so, and a preflight is answered here.
    before(req, res, observed) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (req.method !== 'OPTIONS') return false;
      observed.route('preflight');
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', '*');
      res.statusCode = 204;
      res.end();
      return true;
    },
  });
}

/** @param {RemoteServerOptions} options */
function createRemoteServer(options) {
  return createHttpServer(createRemoteHandler({ ...options, root: path.resolve(options.root) }));
}

module.exports = { createRemoteHandler, createRemoteServer };

// The production server of one deployable: its dist/ on its own port, with the caching and CORS rules federated
// assets need, and for the shell its documents, composed per request with the pages' server-rendered HTML
// (documentComposer.js), with robots.txt, sitemap.xml and its health (/healthz, /readyz). sirv does the file serving
// (precompressed .br/.gz, ETags, ranges, no path traversal). Every request is logged and counted (observability/).
const fs = require('node:fs');
const path = require('node:path');
const sirv = require('sirv');
const { COMMON_HEADERS, htmlHeaders, htmlHeadersFromFile } = require('./securityHeaders');
const { createDocumentComposer } = require('./documentComposer');
const { sendDocument } = require('./documentResponse');
const { createHttpServer } = require('./httpServer');
const { requestTarget } = require('./requestTarget');
const { createReadiness } = require('./readiness');
const { createReportsEndpoint } = require('./reportsEndpoint');
const { REPORTS_PATH } = require('@nativegtm/contract/reports');
const { HEALTH_PATH, READINESS_PATH } = require('./healthPaths');
const { fragmentEvents } = require('./observability/fragmentEvents');
const { silentLogger } = require('./observability/logger');
const { createRequestObserver } = require('./observability/requestLog');
const { FILE_EXTENSION, HASHED_ASSET } = require('@nativegtm/contract/assetNames');
const { PREVIEW_PATH_PREFIX } = require('@nativegtm/contract/releases');
const { REMOTES_CONFIG_PATH } = require('@nativegtm/contract/remotesConfig');
const { createRemoteFiles } = require('./releases/remoteFiles');
const { createPreviews, previewRemotesJson, PREVIEW_HEADERS } = require('./releases/previews');

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {ReturnType<typeof createDocumentComposer>} DocumentComposer */
/** @typedef {ReturnType<ReturnType<typeof createRequestObserver>>} Observed */
/** @typedef {import('./documentComposer').Preview} Preview */

/**
 * @typedef {{ root: string, spa?: boolean, cors?: boolean, files?: Record<string, string>,
 *   compose?: { routes: { route: string, remote: string }[], origin: string, fragmentTimeoutMs?: number },
 *   name?: string, logger?: import('./observability/logger').Logger,
 *   metrics?: import('./observability/metrics').Metrics,
 *   releases?: import('./releases/storeLayout').StoreLayout, releasesDir?: string }} DeployableOptions
 *   spa: unknown page routes get index.html (the shell's 404 screen lives in the app); cors: let other origins
 *   (the shell) load the manifest and chunks; files: URL paths served from a file outside root, e.g. a
 *   remotes.json kept with the deployment's configuration rather than in dist/; compose: the shell's documents are
 *   composed with the pages' server-rendered HTML (documentComposer.js), with robots.txt, sitemap.xml and /readyz;
 *   name: the deployable's, in logs and metrics; logger: where request lines go (nowhere unless given); metrics:
 *   where requests, documents and fragments are counted; releases: a remote's folder in the release store, whose
 *   live release it serves first (releases/remoteFiles.js); releasesDir: the store, where the shell finds the
 *   releases it previews (releases/previews.js).
 */

/**
 * Page routes and .html files are documents; everything with another extension is an asset.
 * @param {string} pathname
 */
const isDocument = (pathname) => pathname.endsWith('.html') || !FILE_EXTENSION.test(pathname);

/**
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

/** @param {DeployableOptions} options */
function createDeployableHandler({
  root,
  spa = false,
  cors = false,
  files = {},
  compose,
  name = 'site',
  logger = silentLogger(),
  metrics,
  releases,
  releasesDir,
}) {
  // The shell's documents allow scripts from the remotes it is configured to load; a remote's own page, nothing else.
  const remotesFile = spa ? (files['/remotes.json'] ?? path.join(root, 'remotes.json')) : undefined;
  /**
   * A static file server on `dir`, with the caching and security headers of every deployable.
   * @param {string} dir
   * @param {{ immutable?: boolean, notFound?: boolean }} [options] immutable: the folder never changes (a release),
   *   so its files are listed once; notFound: answers 404 itself rather than handing the request on
   */
  const staticFiles = (dir, { immutable = false, notFound = false } = {}) =>
    sirv(path.resolve(dir), {
      // Per-request lookup instead of a file list taken at start-up: a redeployed remote (new hashed chunks, new
      // manifest) or an operator's edit of remotes.json is served at once, without a restart.
      dev: !immutable,
      etag: true,
      gzip: true,
      brotli: true,
      single: spa && !compose,
      setHeaders(res, pathname) {
        res.setHeader(
          'Cache-Control',
          HASHED_ASSET.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        if (isDocument(pathname)) {
          const headers = remotesFile ? htmlHeadersFromFile(remotesFile) : htmlHeaders([]);
          for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        }
      },
      onNoMatch: notFound
        ? (_req, res) => {
            res.statusCode = 404;
            res.setHeader('Content-Type', 'text/plain; charset=utf-8');
            res.setHeader('Cache-Control', 'no-cache');
            res.end('Not found\n');
          }
        : undefined,
    });
  const dist = staticFiles(root, { notFound: true });
  // A remote with releases in the store serves its live release first (releases/remoteFiles.js).
  const remoteFiles =
    releases &&
    createRemoteFiles({
      layout: releases,
      dist,
      files: staticFiles,
      onProblem: (problem, keeping) =>
        logger.error({ remote: name, problem, keeping: keeping ?? 'dist/' }, 'live pointer ignored'),
      onChange: (release) => logger.info({ remote: name, release: release ?? 'dist/' }, 'live release'),
    });
  const serve = remoteFiles ? remoteFiles.serve : dist;

  const composer =
    compose &&
    createDocumentComposer({
      root: path.resolve(root),
      remotesFile: remotesFile ?? path.join(root, 'remotes.json'),
      events: fragmentEvents({ metrics, logger }),
      metrics,
      ...compose,
    });
  const previews =
    composer &&
    releasesDir !== undefined &&
    createPreviews({
      storeDir: releasesDir,
      routes: compose.routes,
      secure: compose.origin.startsWith('https:'),
    });
  // Browsers report to the origin of the documents: the shell's.
  const reports = composer && createReportsEndpoint({ logger, metrics });
  const readiness =
    composer &&
    createReadiness({
      remotesFile: remotesFile ?? path.join(root, 'remotes.json'),
      remoteNames: [...new Set(compose.routes.map((route) => route.remote))],
      builds: composer.liveBuilds,
    });

  /**
   * @param {DocumentComposer} composer
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {Observed} observed
   * @param {Preview | undefined} preview
   */
  async function serveDocument(composer, req, res, observed, preview) {
    const started = performance.now();
    try {
      const document = await composer.render(/** @type {string} */ (req.url), preview);
      const label = document.route ?? 'not-found';
      observed.route(label);
      metrics?.document(label, (performance.now() - started) / 1000);
      // Without a remotes.json (a composing server that is not the shell's), no remote's origin is allowed.
      const headers = remotesFile ? htmlHeadersFromFile(remotesFile) : htmlHeaders([]);
      sendDocument(req, res, document, preview ? { ...headers, ...PREVIEW_HEADERS } : headers);
    } catch (error) {
      logger.error({ reqId: observed.id, err: error }, 'document could not be composed');
      res.statusCode = 500;
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('The page could not be composed.\n');
    }
  }

  /**
   * @param {() => Promise<import('./readiness').Readiness>} readiness
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   */
  async function serveReadiness(readiness, req, res) {
    const answer = await readiness();
    res.statusCode = answer.ready ? 200 : 503;
    sendText(req, res, 'application/json', `${JSON.stringify(answer, null, 2)}\n`, 'no-store');
  }

  const observeRequest = createRequestObserver({ server: name, logger, metrics });

  /**
   * A request nothing below expected ends that one response with 400, never the server every page runs on.
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   */
  function handle(req, res) {
    const observed = observeRequest(req, res);
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
  }

  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {Observed} observed
   */
  function route(req, res, observed) {
    for (const [header, value] of Object.entries(COMMON_HEADERS)) res.setHeader(header, value);
    if (cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (req.method === 'OPTIONS') {
        observed.route('preflight');
        res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
        res.setHeader('Access-Control-Allow-Headers', '*');
        res.statusCode = 204;
        return res.end();
      }
    }
    if (reports && req.url === REPORTS_PATH) {
      observed.route('reports');
      return reports(req, res, observed);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      observed.route('method-not-allowed');
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, HEAD');
      return res.end();
    }
    // A server's request always has a target: only a client's response leaves url unset.
    const { pathname } = requestTarget(/** @type {string} */ (req.url));
    // For load balancers and orchestrators: the process serves (never cached on the way).
    if (pathname === HEALTH_PATH) {
      observed.route('healthz');
      return sendText(req, res, 'text/plain', 'ok\n', 'no-store');
    }
    const preview = previews ? previews.of(req) : undefined;
    if (previews && pathname.startsWith(PREVIEW_PATH_PREFIX)) {
      observed.route('preview');
      return previews.handle(res, pathname);
    }
    const override = files[pathname] ?? (preview && pathname === REMOTES_CONFIG_PATH ? remotesFile : undefined);
    if (override) {
      observed.route('config');
      return sendFile(res, override, preview);
    }
    if (composer && readiness) {
      if (pathname === READINESS_PATH) {
        observed.route('readyz');
        return void serveReadiness(readiness, req, res);
      }
      if (pathname === '/robots.txt') {
        observed.route('robots.txt');
        return sendText(req, res, 'text/plain', composer.robotsTxt());
      }
      if (pathname === '/sitemap.xml') {
        observed.route('sitemap.xml');
        return sendText(req, res, 'application/xml', composer.sitemapXml());
      }
      // index.html is the template, never served as it is: /index.html is just another unknown page.
      if (!FILE_EXTENSION.test(pathname) || pathname === '/index.html') {
        return void serveDocument(composer, req, res, observed, preview);
      }
    }
    observed.route('asset');
    // sirv pipes a file it found into the response; if a redeploy deletes it before it is opened, the read stream's
    // error would have no listener and end the whole server. The response is cut short instead (the browser's load of
    // that file fails, as for a dropped connection) and the server carries on.
    res.once('pipe', (source) =>
      source.once(
        'error',
        /** @param {NodeJS.ErrnoException} error */ (error) => {
          logger.warn({ reqId: observed.id, path: pathname, reason: error.code ?? error.message }, 'file vanished');
          res.destroy();
        },
      ),
    );
    return serve(req, res);
  }

  // Stops the composer's background refresh of fragments (the server calls it when it closes).
  return Object.assign(handle, { close: () => composer?.close() });
}

/**
 * Sends one configuration file, always revalidated (it is edited in place); remotes.json as a preview sees it.
 * @param {ServerResponse} res
 * @param {string} file
 * @param {Preview} [preview]
 */
function sendFile(res, file, preview) {
  fs.readFile(file, (error, body) => {
    if (error) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      return res.end('Not found\n');
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (!preview) {
      res.setHeader('Cache-Control', 'no-cache');
      return res.end(body);
    }
    for (const [name, value] of Object.entries(PREVIEW_HEADERS)) res.setHeader(name, value);
    return res.end(previewRemotesJson(body.toString('utf8'), preview));
  });
}

/** @param {DeployableOptions} options */
function createDeployableServer(options) {
  return createHttpServer(createDeployableHandler(options));
}

module.exports = { createDeployableHandler, createDeployableServer };

// The shell's production server. Composing (npm start): every page route answers a complete document, composed per
// request (documentComposer.js) and sent compressed (documentResponse.js), with robots.txt, sitemap.xml, its health
// (/healthz, /readyz), browsers' reports (POST /_reports) and previews of releases (/_preview/…). Not composing (the
// shell's own `npm start` in its folder): its dist/ as a single-page app. remotes.json is read through one reader
// (remotesFile.js) for every use.
const path = require('node:path');
const { REMOTES_CONFIG_PATH } = require('@nativegtm/contract/remotesConfig');
const { REPORTS_PATH } = require('@nativegtm/contract/reports');
const { FIELD_DATA_PATH, fieldTokenTag } = require('@nativegtm/contract/fieldData');
const { PREVIEW_PATH_PREFIX } = require('@nativegtm/contract/releases');
const { FILE_EXTENSION } = require('@nativegtm/contract/assetNames');
const { htmlHeadersFor } = require('./securityHeaders');
const { createDocumentComposer } = require('./documentComposer');
const { sendDocument } = require('./documentResponse');
const { createHttpServer } = require('./httpServer');
const { createReadiness } = require('./readiness');
const { createReportsEndpoint } = require('./reportsEndpoint');
const { createFieldCollector } = require('./fieldData/fieldCollector');
const { serverTiming } = require('./fragmentTiming');
const { HEALTH_PATH, READINESS_PATH } = require('./healthPaths');
const { fragmentEvents } = require('./observability/fragmentEvents');
const { silentLogger } = require('./observability/logger');
const { createPreviews, previewRemotesJson, PREVIEW_HEADERS } = require('./releases/previews');
const { createRemotesFile } = require('./remotesFile');
const { anyPath, createRouteHandler, is, sendText, under } = require('./routeTable');
const { guardedFiles, staticFiles } = require('./staticFiles');

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {import('./routeTable').Route} Route */
/** @typedef {import('./documentComposer').Preview} Preview */

/**
 * @typedef {{ root: string, remotesFile?: string, name?: string,
 *   compose?: { routes: { route: string, remote: string }[], origin: string, fragmentTimeoutMs?: number,
 *     sampleRate?: number },
 *   logger?: import('./observability/logger').Logger, metrics?: import('./observability/metrics').Metrics,
 *   releasesDir?: string, fieldData?: { dir: string, secret?: string } }} ShellServerOptions
 *   root: its dist/; remotesFile: the remotes.json served and obeyed (REMOTES_FILE; dist/remotes.json unless given);
 *   name: in logs and metrics; compose: the pages' routes and remotes, the site's public origin, the fragment timeout
 *   (without it, dist/ as a single-page app); logger: where request and fragment lines go (nowhere unless given);
 *   metrics: where requests, documents and fragments are counted; releasesDir: the release store previews come from;
 *   fieldData: where visitors' field data is kept (FIELD_DATA_DIR) and the key of private documents' tokens (without
 *   it, the site takes no field data)
 */

/**
 * @param {ShellServerOptions} options
 * @returns {import('./httpServer').ClosableHandler} close: stops the composer's background refresh of fragments
 */
function createShellHandler({
  root,
  remotesFile,
  name = 'shell',
  compose,
  logger = silentLogger(),
  metrics,
  releasesDir,
  fieldData,
}) {
  const dist = path.resolve(root);
  const remotes = createRemotesFile(remotesFile ?? path.join(dist, 'remotes.json'));
  // The shell's documents allow scripts from the remotes it is configured to load.
  const documentHeaders = () => htmlHeadersFor(remotes.entries());
  const serveFile = guardedFiles(staticFiles(dist, { documentHeaders, notFound: true, single: !compose }), (file) =>
    logger.warn(file, 'file vanished'),
  );
  const health = {
    label: 'healthz',
    path: is(HEALTH_PATH),
    handle: (/** @type {IncomingMessage} */ req, /** @type {ServerResponse} */ res) =>
      sendText(req, res, 'text/plain', 'ok\n', 'no-store'),
  };
  /** @type {Route} */
  const asset = { label: 'asset', path: anyPath, handle: serveFile };

  /**
   * /remotes.json: the configured file when one is given apart from dist/, or as a preview sees it; otherwise dist/'s
   * copy, as any file.
   * @param {((req: IncomingMessage) => Preview | undefined) | undefined} preview the request's preview, if any
   * @returns {Route}
   */
  const remotesJson = (preview) => ({
    label: 'config',
    path: is(REMOTES_CONFIG_PATH),
    handle(req, res, request) {
      const current = preview?.(req);
      if (!remotesFile && !current) {
        request.observed.route('asset');
        return serveFile(req, res, request);
      }
      const text = remotes.text();
      if (text === undefined) {
        res.statusCode = 404;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        return res.end('Not found\n');
      }
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      if (!current) {
        res.setHeader('Cache-Control', 'no-cache');
        return res.end(text);
      }
      for (const [header, value] of Object.entries(PREVIEW_HEADERS)) res.setHeader(header, value);
      return res.end(previewRemotesJson(remotes.entries() ?? {}, current));
    },
  });

  if (!compose) {
    return createRouteHandler({ name, logger, metrics, routes: [health, remotesJson(undefined), asset] });
  }

  const composer = createDocumentComposer({
    root: dist,
    remotes,
    events: fragmentEvents({ metrics, logger }),
    metrics,
    ...compose,
  });
  const previews =
    releasesDir === undefined
      ? undefined
      : createPreviews({ storeDir: releasesDir, routes: compose.routes, secure: compose.origin.startsWith('https:') });
  /** @type {((req: IncomingMessage) => Preview | undefined) | undefined} */
  const previewOf = previews && ((req) => previews.of(req));
  // Browsers report to the origin of the documents: the shell's.
  const reports = createReportsEndpoint({ logger, metrics });
  const collector =
    fieldData &&
    createFieldCollector({ ...fieldData, storeDir: releasesDir, liveBuilds: composer.liveBuilds, metrics, logger });
  const readiness = createReadiness({
    remotes,
    remoteNames: [...new Set(compose.routes.map((route) => route.remote))],
    builds: composer.liveBuilds,
  });

  /** @type {Route['handle']} */
  async function serveDocument(req, res, { observed }) {
    const started = performance.now();
    const preview = previewOf?.(req);
    try {
      const document = await composer.render(/** @type {string} */ (req.url), preview);
      const label = document.route ?? 'not-found';
      observed.route(label);
      metrics?.document(label, (performance.now() - started) / 1000);
      const headers = document.fragment
        ? {
            ...documentHeaders(),
            'Server-Timing': serverTiming(document.fragment, document.composedAt < started),
          }
        : documentHeaders();
      if (!preview) return sendDocument(req, res, document, headers);
      // A preview is private: its document carries its own token, proof for its field data (fieldData/fieldTokens.js).
      const html = collector
        ? document.html.replace('</head>', `${fieldTokenTag(collector.issueToken('preview'))}\n</head>`)
        : document.html;
      return sendDocument(req, res, { ...document, html }, { ...headers, ...PREVIEW_HEADERS }, { personal: true });
    } catch (error) {
      logger.error({ reqId: observed.id, err: error }, 'document could not be composed');
      res.statusCode = 500;
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('The page could not be composed.\n');
    }
  }

  /** @type {Route[]} */
  const routes = [
    {
      label: 'reports',
      path: is(REPORTS_PATH),
      methods: ['POST'],
      handle: (req, res, { observed }) => reports(req, res, observed),
    },
    ...(collector
      ? [
          {
            label: 'field-data',
            path: is(FIELD_DATA_PATH),
            methods: ['POST'],
            quiet: true,
            handle: (/** @type {IncomingMessage} */ req, /** @type {ServerResponse} */ res) =>
              collector.receive(req, res),
          },
        ]
      : []),
    health,
    ...(previews
      ? [
          {
            label: 'preview',
            path: under(PREVIEW_PATH_PREFIX),
            handle: (
              /** @type {IncomingMessage} */ _req,
              /** @type {ServerResponse} */ res,
              /** @type {{ pathname: string }} */ { pathname },
            ) => previews.handle(res, pathname),
          },
        ]
      : []),
    remotesJson(previewOf),
    {
      label: 'readyz',
      path: is(READINESS_PATH),
      async handle(req, res) {
        const answer = await readiness();
        res.statusCode = answer.ready ? 200 : 503;
        return sendText(req, res, 'application/json', `${JSON.stringify(answer, null, 2)}\n`, 'no-store');
      },
    },
    {
      label: 'robots.txt',
      path: is('/robots.txt'),
      handle: (req, res) => sendText(req, res, 'text/plain', composer.robotsTxt()),
    },
    {
      label: 'sitemap.xml',
      path: is('/sitemap.xml'),
      handle: (req, res) => sendText(req, res, 'application/xml', composer.sitemapXml()),
    },
    // index.html is the template, never served as it is: /index.html is just another unknown page.
    {
      label: 'document',
      path: (pathname) => !FILE_EXTENSION.test(pathname) || pathname === '/index.html',
      handle: serveDocument,
    },
    asset,
  ];

  // close() stops the composer's background refresh of fragments and writes out the field data still buffered (the
  // server calls it when it closes).
  return Object.assign(createRouteHandler({ name, logger, metrics, routes }), {
    close() {
      composer.close();
      collector?.flush();
    },
  });
}

/** @param {ShellServerOptions} options */
function createShellServer(options) {
  return createHttpServer(createShellHandler(options));
}

module.exports = { createShellHandler, createShellServer };

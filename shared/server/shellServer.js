// The shell's production server. Composing (npm start): every page route answers a complete document, composed per
// request (documentComposer.js) and sent compressed (documentResponse.js), with robots.txt, sitemap.xml, its health
// (/healthz, /readyz), browsers' reports (POST /_reports), previews of releases (/_preview/…) and canaries (each
// remote's running canary served to its visitors, and its control group measured alike). Not composing (the
// shell's own `npm start` in its folder): its dist/ as a single-page app. remotes.json is read through one reader
// (remotesFile.js) for every use.
const path = require('node:path');
const cookie = require('cookie');
const { REPORTS_PATH } = require('@nativegtm/contract/reports');
const { FIELD_DATA_PATH, fieldTokenTag } = require('@nativegtm/contract/fieldData');
const { PREVIEW_PATH_PREFIX } = require('@nativegtm/contract/releases');
const { OVERRIDE_PATH_PREFIX } = require('@nativegtm/contract/overrides');
const { FILE_EXTENSION } = require('@nativegtm/contract/assetNames');
const { htmlHeadersFor, overrideHtmlHeaders } = require('./securityHeaders');
const { createDocumentComposer } = require('./documentComposer');
const { sendDocument, sendReady } = require('./documentResponse');
const { createSharedDocuments, NOT_FOUND_LABEL } = require('./sharedDocuments');
const { createHttpServer } = require('./httpServer');
const { createReadiness, readinessRoutes } = require('./readiness');
const { storeCopyReader } = require('./releases/storeCopy');
const { createReportsEndpoint } = require('./reportsEndpoint');
const { createFieldLabels } = require('./fieldData/fieldLabels');
const { createFieldCollector } = require('./fieldData/fieldCollector');
const { pollLiveBuilds } = require('./fieldData/liveBuildsPoller');
const { missedFragment, renderedInBrowserTiming, serverTiming } = require('./fragmentTiming');
const { HEALTH_PATH } = require('./healthPaths');
const { fragmentEvents } = require('./observability/fragmentEvents');
const { silentLogger } = require('./observability/logger');
const { createPreviews, PREVIEW_HEADERS } = require('./releases/previews');
const { createVouchedRemotes, remotesJsonRoute } = require('./releases/vouchedRemotes');
const { createCanaries } = require('./releases/canaries');
const { cohortOf, inCanaries, releaseSource } = require('@nativegtm/contract/releaseChoice');
const { createOverrides, OVERRIDE_HEADERS } = require('./releases/overrides');
const { PERSONAL_CACHE_CONTROL } = require('./documentCaching');
const { createRemotesFile } = require('./remotesFile');
const { anyPath, createRouteHandler, is, sendText, under } = require('./routeTable');
const { guardedFiles, staticFiles } = require('./staticFiles');

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {import('./routeTable').Route} Route */
/** @typedef {import('./documentComposer').ChosenRelease} ChosenRelease */
/**
 * Whom a request's document and remotes.json are for, when not everyone: a browser that overrides a remote with a dev
 * server, a preview's browser, or a visitor on either side of one or more canaries. Either way that visitor's alone
 * (`headers`), with the releases chosen for them and the override, if any.
 * @typedef {{ chosen: ChosenRelease[], headers: Record<string, string>, cohort: (pageRemote?: string) => string,
 *   override?: import('./releases/overrides').Override }} Personal
 */

/** What a canary's visitors are served: theirs alone. Not noindex, unlike a preview: it is the site, as it will be. */
const CANARY_HEADERS = { 'Cache-Control': PERSONAL_CACHE_CONTROL };

/**
 * @typedef {{ root: string, remotesFile?: string, name?: string,
 *   compose?: { routes: { route: string, remote: string }[], origin: string, fragmentTimeoutMs?: number,
 *     sampleRate?: number, overrideOrigins?: readonly import('@nativegtm/contract/overrides').OriginPattern[] },
 *   logger?: import('./observability/logger').Logger, metrics?: import('./observability/metrics').Metrics,
 *   releasesDir?: string, servedFromFolders?: readonly string[], storeCopy?: boolean,
 *   fieldData?: import('./fieldData/fieldCollector').FieldDataOptions }}
 *   ShellServerOptions
 *   root: its dist/; remotesFile: the remotes.json served and obeyed (REMOTES_FILE; dist/remotes.json unless given);
 *   name: in logs and metrics; compose: the pages' routes and remotes, the site's public origin, the fragment timeout,
 *   the origins overrides may come from (OVERRIDE_ORIGINS; loopback unless given) (without it, dist/ as a single-page
 *   app); logger: where request and fragment lines go (nowhere unless given);
 *   metrics: where requests, documents and fragments are counted; releasesDir: the release store previews come from;
 *   servedFromFolders: remotes whose servers serve a folder of their own, not the store (the gate's candidate);
 *   storeCopy: releasesDir is this node's copy of the store on PostgreSQL (ready only once it holds one);
 *   fieldData: where visitors' field data is kept (FIELD_DATA_DIR), the key of private documents' tokens, and the
 *   proxies whose X-Forwarded-For names a visitor's network (TRUSTED_PROXIES) (without it, the site takes no field data)
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
  servedFromFolders = [],
  storeCopy = false,
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

  const vouched = createVouchedRemotes({
    remotes,
    releasesDir,
    servedFromFolders,
    logger,
  });
  /**
   * /remotes.json as browsers get it (releases/vouchedRemotes.js), for whom the request is for.
   * @param {((req: IncomingMessage) => Personal | undefined) | undefined} personalOf
   */
  const remotesJson = (personalOf) => remotesJsonRoute(vouched, personalOf);

  if (!compose) {
    return createRouteHandler({ name, logger, metrics, routes: [health, remotesJson(undefined), asset] });
  }

  const remoteNames = [...new Set(compose.routes.map((route) => route.remote))];
  const canaries =
    releasesDir === undefined
      ? undefined
      : createCanaries({
          storeDir: releasesDir,
          remoteNames,
          onProblem: (remote, problem) => logger.warn({ remote, problem }, 'canary state unusable: everyone on live'),
        });
  const { overrideOrigins, ...composing } = compose;
  const composer = createDocumentComposer({
    root: dist,
    remotes,
    events: fragmentEvents({ metrics, logger }),
    metrics,
    canaries: canaries && (() => canaries.shares()),
    vouchedFragments: vouched.serverRendered,
    ...composing,
    // A site that takes no field data asks browsers for none: their beacons would each be refused with a 405.
    sampleRate: fieldData ? compose.sampleRate : 0,
  });
  // A document for everyone is sent from what is ready; composed on request only when it is not (sharedDocuments.js).
  const shared = createSharedDocuments({ compose: composer.render, version: remotes.entries, metrics, logger });
  const secure = compose.origin.startsWith('https:');
  const previews =
    releasesDir === undefined
      ? undefined
      : createPreviews({
          storeDir: releasesDir,
          routes: compose.routes,
          secure,
          templateFile: path.join(dist, 'index.html'),
        });
  const overrides = createOverrides({ routes: compose.routes, origins: overrideOrigins, secure });
  /**
   * Whom the request is for and which releases it gets, by the rule both servers share (@nativegtm/contract/
   * releaseChoice): an override, a preview, the visitor's canary sides, or everyone. The cookies are parsed once, here.
   * @param {IncomingMessage} req
   * @returns {Personal | undefined}
   */
  function personalOf(req) {
    const header = req.headers.cookie;
    if (!header) return undefined;
    const cookies = cookie.parse(header);
    const override = overrides.of(cookies);
    const preview = previews?.of(cookies);
    const request = { override: override?.remote, preview: preview?.remote };
    const sides = inCanaries(request) ? (canaries?.sidesOf(cookies) ?? []) : [];
    if (!override && !preview && sides.length === 0) return undefined;
    const sideOf = Object.fromEntries(sides.map((side) => [side.remote, side]));
    const chosen = remoteNames.flatMap((remote) => {
      const source = releaseSource(remote, { ...request, side: sideOf[remote]?.side });
      if (source === 'preview') return preview ? [preview] : [];
      return source === 'canary' ? [/** @type {ChosenRelease} */ (sideOf[remote])] : [];
    });
    const sidesByRemote = Object.fromEntries(sides.map((side) => [side.remote, side.side]));
    return {
      chosen,
      headers: override ? OVERRIDE_HEADERS : preview ? PREVIEW_HEADERS : CANARY_HEADERS,
      cohort: (pageRemote) =>
        /** @type {string} */ (cohortOf({ ...request, sides: sidesByRemote }, pageRemote, remoteNames)),
      override,
    };
  }
  const remoteOfRoute = new Map(compose.routes.map((route) => [route.route, route.remote]));
  // Every remote's live build, read in the background: a beacon may come from a page this process never composed
  // (an in-app navigation, a document another worker composed), so what its documents read would not be enough.
  const builds = pollLiveBuilds({ remotes });
  // Browsers report to the origin of the documents: the shell's. A refused file is counted by the release it was of.
  const reports = createReportsEndpoint({
    logger,
    metrics,
    labels: createFieldLabels({ storeDir: releasesDir, liveBuilds: builds.liveBuilds }),
  });
  const firstRead = builds.refresh();
  const collector =
    fieldData &&
    createFieldCollector({ ...fieldData, storeDir: releasesDir, liveBuilds: builds.liveBuilds, metrics, logger });
  const copy = storeCopy && releasesDir !== undefined ? storeCopyReader(releasesDir) : undefined;
  if (copy) metrics?.watchStoreCopy(copy);
  const readiness = createReadiness({
    remotes,
    remoteNames,
    builds: builds.liveBuilds,
    storeCopy: copy,
  });

  /** @type {Route['handle']} */
  async function serveDocument(req, res, { pathname, search, observed }) {
    const started = performance.now();
    const personal = personalOf(req);
    if (!personal) {
      const route = composer.routeOf(pathname);
      const found = shared.lookup(route, search);
      if ('ready' in found) {
        observed.route(route ?? NOT_FOUND_LABEL);
        metrics?.document(route ?? NOT_FOUND_LABEL, (performance.now() - started) / 1000);
        return sendReady(req, res, found.ready, documentHeaders());
      }
      metrics?.composedOnRequest(route ?? NOT_FOUND_LABEL, found.reason);
    }
    const override = personal?.override;
    try {
      const document = await composer.render(/** @type {string} */ (req.url), personal?.chosen, override?.remote);
      const label = document.route ?? NOT_FOUND_LABEL;
      const pageRemote = document.route && remoteOfRoute.get(document.route);
      // A developer's documents are counted apart from visitors' (and compose faster: one remote is not fetched).
      observed.route(override ? 'override' : label);
      if (!override) metrics?.document(label, (performance.now() - started) / 1000);
      // Shared and never copied: a shared document's headers are the same object for every request.
      const headers = override ? overrideHtmlHeaders(remotes.entries() ?? {}, override) : documentHeaders();
      const timing =
        override && pageRemote === override.remote
          ? renderedInBrowserTiming(override)
          : document.fragment && serverTiming(document.fragment, false);
      if (!personal) return sendDocument(req, res, document, headers, { timing });
      // A personal document carries its own token, proof for its field data (fieldData/fieldTokens.js), which says
      // whom it was for: a preview, or a canary's side.
      const cohort = personal.cohort(pageRemote);
      const token = collector?.issueToken(cohort, {
        address: req.socket.remoteAddress,
        forwardedFor: req.headers['x-forwarded-for'],
      });
      const html = token ? document.html.replace('</head>', `${fieldTokenTag(token)}\n</head>`) : document.html;
      // A document of a side of its own page's canary: whether that remote's fragment made it in is a signal too.
      if (token && document.route && pageRemote && cohort.endsWith(`:${pageRemote}`)) {
        const failed = document.fragment === undefined || missedFragment(document.fragment);
        collector?.recordDocument({ token, route: document.route, remote: pageRemote, cohort, failed });
      }
      return sendDocument(
        req,
        res,
        { ...document, html },
        { ...headers, ...personal.headers },
        { personal: true, timing },
      );
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
            // A beacon that comes as the server starts waits for the first read (at most the poller's timeout),
            // rather than being labelled "other".
            handle: async (/** @type {IncomingMessage} */ req, /** @type {ServerResponse} */ res) => {
              await firstRead;
              return collector.receive(req, res);
            },
          },
        ]
      : []),
    health,
    {
      label: 'override',
      path: under(OVERRIDE_PATH_PREFIX),
      handle: (req, res, { pathname, search }) => overrides.handle(req, res, pathname, new URLSearchParams(search)),
    },
    ...(previews
      ? [
          {
            label: 'preview',
            path: under(PREVIEW_PATH_PREFIX),
            // A preview's confirmation is posted (releases/previews.js).
            methods: ['GET', 'HEAD', 'POST'],
            handle: (
              /** @type {IncomingMessage} */ req,
              /** @type {ServerResponse} */ res,
              /** @type {{ pathname: string }} */ { pathname },
            ) => previews.handle(req, res, pathname),
          },
        ]
      : []),
    remotesJson(personalOf),
    ...readinessRoutes(readiness),
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

  // close() stops the composer's background refresh of fragments and the reading of live builds, and writes out the
  // field data still buffered (the server calls it when it closes).
  return Object.assign(createRouteHandler({ name, logger, metrics, routes }), {
    close() {
      shared.close();
      composer.close();
      builds.stop();
      return collector?.flush();
    },
  });
}

/** @param {ShellServerOptions} options */
function createShellServer(options) {
  return createHttpServer(createShellHandler(options));
}

module.exports = { createShellHandler, createShellServer };

// The nginx configuration as text: a pure function of what generateConfig.js read (remotes.json's entries, the pages'
// queries) and the options. It serves the five dist/ folders with the same headers, caching, 404 rules and
// composed documents (SSI) as the built-in server; each rule it shares with that server comes from the same place
// (@nativegtm/contract: routes, compose paths, asset names, page variants; securityHeaders.js, siteMeta.js).
const fs = require('node:fs');
const path = require('node:path');
const { deployables } = require('@nativegtm/server/deployables');
const { COMMON_HEADERS, htmlHeaders, remoteOrigins } = require('@nativegtm/server/securityHeaders');
const { DEFAULT_ORIGIN, robotsTxt, siteHead, siteOrigin, sitemapXml } = require('@nativegtm/server/siteMeta');
const { HEALTH_PATH, READINESS_PATH } = require('@nativegtm/server/healthPaths');
const { HEADER_TIMEOUT_MS, UPSTREAM_IDLE_MS } = require('@nativegtm/server/httpServer');
const { MAX_REPORT_BYTES, REPORTS_PATH } = require('@nativegtm/contract/reports');
const { FIELD_DATA_PATH, FIELD_TOKEN_PATH, MAX_BEACON_BYTES } = require('@nativegtm/contract/fieldData');
const { FILE_EXTENSION, HASHED_ASSET } = require('@nativegtm/contract/assetNames');
const {
  composeParts,
  composePath,
  EMPTY_INCLUDE,
  NOT_FOUND_DOCUMENT,
  NOT_FOUND_SCREEN,
} = require('@nativegtm/contract/composePaths');
const { fragmentPaths, REMOTE_BASE_VARIABLE } = require('@nativegtm/contract/fragments');
const { DEFAULT_VALUE, SEPARATOR, variantPatterns } = require('@nativegtm/contract/pageVariant');
const { routePattern } = require('@nativegtm/contract/routes');
const { block } = require('./indent');
const { headerLines, nginxText, quote } = require('./syntax');
const { documentCacheControl, PERSONAL_CACHE_CONTROL } = require('@nativegtm/server/documentCaching');
const { CURRENT_SECOND_VARIABLE, FRAGMENT_CACHE_HEADERS } = require('./fragmentCaching');
const { storeLayout } = require('@nativegtm/store/layout');
const {
  PERSONAL_VARIABLE,
  PREVIEWING_VARIABLE,
  canariesListed,
  cohortVariable,
  previewCheck,
  previewLocations,
  previewRouteMap,
  releaseMaps,
  releasePathVariable,
  remoteReleaseLocations,
} = require('./releaseLocations');
const {
  OVERRIDE_ORIGIN_VARIABLE,
  OVERRIDE_REMOTE_VARIABLE,
  overridableHtmlHeaders,
  overrideLocations,
  overrideMaps,
  skipWhenOverridden,
} = require('./overrideLocations');
const { DEFAULT_OVERRIDE_ORIGINS } = require('@nativegtm/server/releases/overrides');
const { CHOICE_HEADERS } = require('@nativegtm/server/releases/nginxChoice');
const { FRAGMENTS_PATH } = require('@nativegtm/server/releases/storeFragments');
const { REMOTES_CONFIG_PATH } = require('@nativegtm/contract/remotesConfig');
const { documentFile } = require('@nativegtm/contract/documentFiles');

/** @typedef {import('@nativegtm/server/deployables').Deployable} Deployable */
/** @typedef {import('@nativegtm/contract/pageVariant').PageQuery} PageQuery */
/** @typedef {Record<string, string>} Headers */
/** @typedef {import('@nativegtm/contract/overrides').OriginPattern} OriginPattern */
/**
 * Where a remote is and which variants its page has, as far as this configuration knows; the file its documents for
 * everyone are sent from (documentFileMap).
 * @typedef {{ remote: string, route: string, base: URL, upstream: string, maps: string, key: string,
 *   undecidable: string | undefined, file: string, fileMap: string }} RemotePlan
 */

/**
 * What the collector is told of the visitor: the address nginx saw and the X-Forwarded-For it was sent (the main
 * request's, in an include), for it to find the visitor's network as the built-in server does (TRUSTED_PROXIES).
 */
const CLIENT_ADDRESS_HEADERS = [
  'proxy_set_header X-Real-IP $remote_addr;',
  'proxy_set_header X-Forwarded-For $http_x_forwarded_for;',
];
/** The field-data collector's upstream name (a Node process beside nginx: @nativegtm/server's nativegtm-collect). */
const COLLECTOR_UPSTREAM = 'nativegtm_collector';
/**
 * How long nginx waits for the collector's /remotes.json: more than a dist/ remote's list may take it to read
 * (@nativegtm/server releases/vouchedRemotes.js), far less than nginx's default minute.
 */
const REMOTES_JSON_TIMEOUT_S = 3;
/** The relay's upstream name. */
const RELAY_UPSTREAM = 'nativegtm_fragment_relay';
/** How much longer than the fragment timeout an include waits for the relay's own answer to a timeout. */
const RELAY_MARGIN_MS = 100;

/**
 * Every status an include can answer but 200 (nginx's error_page takes 300-599; 499 is its own code for a client
 * that went away): turned into an empty include, so an error page, a redirect or a "not modified" is never pasted
 * into a document. (Other 2xx answers cannot be intercepted; a remote's static server does not send them for a plain
 * GET.)
 */
const INTERCEPTED_STATUSES = Array.from({ length: 300 }, (_, index) => 300 + index)
  .filter((status) => status !== 499)
  .join(' ');

/**
 * The page's variant key, computed by nginx from the request's raw query with one map per parameter, from the very
 * regular expressions the built-in server runs (pageVariant: exactly one occurrence of a listed value, otherwise
 * the default), plus one map saying whether the key can be told without decoding (otherwise the page gets no HTML
 * and renders in the browser, as with the built-in server). The listed values come from the remote's
 * ssr/manifest.json when the configuration is generated (readPageQueries.js): regenerate when a page changes its
 * parameters (until then such URLs get HTML the browser does not hydrate but renders afresh).
 * @param {string} remote
 * @param {PageQuery} query
 * @param {number} remoteIndex
 * @returns {{ maps: string, key: string, undecidable: string | undefined }}
 */
function variantMaps(remote, query, remoteIndex) {
  const patterns = variantPatterns(query);
  if (patterns.params.length === 0) return { maps: '', key: 'index', undecidable: undefined };
  const maps = patterns.params.map(({ repeated, value }, index) => {
    // A capture group's name, which PCRE2 allows 32 characters: not built from the remote's name.
    const group = `ngtm${remoteIndex}_${index}`;
    return block(`map $args $nativegtm_${remote}_${index}`, [
      `default ${quote(DEFAULT_VALUE)};`,
      `${quote(`~${repeated}`)} ${quote(DEFAULT_VALUE)};`,
      `${quote(`~${value(group)}`)} $${group};`,
    ]);
  });
  const undecidable = `$nativegtm_${remote}_undecidable`;
  maps.push(
    block(`map $args ${undecidable}`, [
      'default 0;',
      ...patterns.undecidable.map((pattern) => `${quote(`~${pattern}`)} 1;`),
    ]),
  );
  const key = patterns.params.map((_, index) => `\${nativegtm_${remote}_${index}}`).join(SEPARATOR);
  return { maps: maps.join('\n\n'), key, undecidable };
}

/**
 * @param {Deployable} deployable
 * @param {Partial<Record<string, string>>} remotes
 * @param {Record<string, PageQuery>} queries
 * @param {number} remoteIndex
 * @returns {RemotePlan | undefined} its file is withDocumentFiles'
 */
function remotePlan(deployable, remotes, queries, remoteIndex) {
  const remote = /** @type {string} */ (deployable.remote);
  const manifestUrl = remotes[remote];
  if (!manifestUrl) return undefined;
  return {
    remote,
    route: /** @type {string} */ (deployable.route),
    base: new URL('./', manifestUrl),
    upstream: `nativegtm_${remote}`,
    ...variantMaps(remote, queries[remote] ?? {}, remoteIndex),
    file: '',
    fileMap: '',
  };
}

/**
 * The folder of the canaries nginx lists (@nativegtm/contract/documentFiles canaryFolder), from the variables it
 * lists them with: each remote's "<remote>=<share>" or nothing, in the plans' order.
 * @param {RemotePlan[]} plans
 */
const canaryFolderOf = (plans) =>
  canariesListed(plans)
    .variables.map((variable) => `\${${variable.slice(1)}}`)
    .join(',');

/**
 * Each plan with the file its documents are sent from, and the 404 document's (documentFileMap).
 * @param {RemotePlan[]} plans
 * @param {boolean} releases
 */
function withDocumentFiles(plans, releases) {
  const canaries = releases ? canaryFolderOf(plans) : undefined;
  const files = plans.map((plan) => {
    const { map, file } = documentFileMap(plan.remote, plan.key, { releases, undecidable: plan.undecidable, canaries });
    return { ...plan, file, fileMap: map };
  });
  const notFound = documentFileMap(NOT_FOUND_SCREEN, 'index', { releases, undecidable: undefined, canaries });
  return { plans: files, notFound };
}

/**
 * An upstream's idle connections: `count` kept, each closed by nginx before the server would close it (a request
 * nginx sent on a connection the server is closing would fail, and a beacon's POST is not retried).
 * @param {number} count
 */
const keepalive = (count) => [`keepalive ${count};`, `keepalive_timeout ${UPSTREAM_IDLE_MS / 1000}s;`];

/** @param {RemotePlan} plan */
function upstreamBlock(plan) {
  const port = plan.base.port || (plan.base.protocol === 'https:' ? 443 : 80);
  return block(`upstream ${plan.upstream}`, [
    '# Never marked failed: after a remote that hung is back, nginx must not skip it for fail_timeout.',
    `server ${plan.base.hostname}:${port} max_fails=0;`,
    ...keepalive(16),
  ]);
}

/**
 * Connecting, sending and reading each within `ms`.
 * @param {number} ms
 */
const proxyTimeouts = (ms) => ['connect', 'send', 'read'].map((phase) => `proxy_${phase}_timeout ${ms}ms;`).join('\n');

/**
 * How the fragment relay fetches from a remote: from the remote's origin (nothing else: no redirect is followed),
 * within the fragment timeout, with none of the visitor's headers.
 * @param {RemotePlan} plan
 * @param {number} timeoutMs
 */
function remoteFetchSettings(plan, timeoutMs) {
  const https = plan.base.protocol === 'https:';
  return [
    'proxy_http_version 1.1;',
    "# None of the visitor's headers (Cookie, Authorization, Range, If-None-Match…) go to a remote: an include is",
    '# the same request for every visitor.',
    'proxy_pass_request_headers off;',
    "# Connections to the remote are kept open for the next fetch (the upstream's keepalive).",
    'proxy_set_header Connection "";',
    `proxy_set_header Host ${quote(plan.base.host)};`,
    'proxy_set_header Accept-Encoding "";',
    'proxy_pass_request_body off;',
    proxyTimeouts(timeoutMs),
    '# A host name may have several addresses (localhost: ::1 and 127.0.0.1): an address that refuses is followed',
    '# by one more try; a timeout is not (it has used the whole fragment timeout).',
    'proxy_next_upstream error;',
    'proxy_next_upstream_tries 2;',
    `proxy_next_upstream_timeout ${timeoutMs}ms;`,
    'proxy_redirect off;',
    "# The copy's lifetime is the site's rule (fragmentCaching.js, added by the server block), not the remote's.",
    ...['Cache-Control', 'Expires', 'Set-Cookie', 'Vary', 'ETag', 'Last-Modified', 'X-Accel-Expires'].map(
      (header) => `proxy_hide_header ${header};`,
    ),
    '# Any failure (an error status, a redirect, a refusal, a timeout) is an empty answer, kept and refreshed like a',
    '# good one (see the relay server).',
    'proxy_intercept_errors on;',
    `error_page ${INTERCEPTED_STATUSES} = @failed;`,
    ...(https
      ? [
          'proxy_ssl_server_name on;',
          `proxy_ssl_name ${quote(plan.base.hostname)};`,
          'proxy_ssl_verify on;',
          'proxy_ssl_trusted_certificate /etc/ssl/certs/ca-certificates.crt;',
        ]
      : []),
  ].join('\n');
}

/**
 * What every include of a remote shares: answered from nginx's fragment cache, filled through the relay (the
 * remote's files with the site's cache lifetime); any failure (refused, timeout, error status, redirect) becomes an
 * empty 200, so SSI prints the template's fallback instead of an error page.
 * @param {string} key the file's cache key, also its path on the relay
 * @param {number} timeoutMs
 */
function includeSettings(key, timeoutMs) {
  // The relay gives up at the fragment timeout and answers 504; the include waits a little longer for that answer,
  // so a timeout is an error response nginx can remember like any other.
  const waitMs = timeoutMs + RELAY_MARGIN_MS;
  return [
    'internal;',
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
    'proxy_pass_request_headers off;',
    'proxy_pass_request_body off;',
    proxyTimeouts(waitMs),
    'proxy_cache nativegtm_fragments;',
    `proxy_cache_key ${quote(key)};`,
    "# Each answer, good or failed, lives as the relay's headers say (fragmentCaching.js): fresh until the end of the",
    '# second it was fetched in, then served one second more while one request refreshes it in the background. A',
    '# failure is remembered the same way, so a hanging remote costs one timeout a second, not one per document.',
    'proxy_cache_background_update on;',
    "# No cache lock: a request waiting for nginx's lock checks it every 500 ms, and a document waits for its",
    '# includes, background refreshes included, so under load documents took up to 500 ms. Without it, the few',
    '# documents that find a copy expired at the same moment each fetch it (1 ms through the relay on loopback).',
    'proxy_cache_lock off;',
    'proxy_intercept_errors on;',
    `error_page ${INTERCEPTED_STATUSES} =200 ${EMPTY_INCLUDE};`,
  ].join('\n');
}

/**
 * The includes of one remote: its head and its page's HTML (with releases, of the release a browser previews or a
 * canary's visitor gets).
 * @param {RemotePlan} plan
 * @param {number} timeoutMs
 * @param {boolean} releases
 */
function remoteIncludeLocations(plan, timeoutMs, releases) {
  const previewed = releases ? releasePathVariable(plan.remote) : '';
  /** @param {string} file */
  const key = (file) => `/${plan.remote}/${previewed}${file}`;
  /** @param {string} file */
  const proxy = (file) => `http://${RELAY_UPSTREAM}${key(file)}`;
  const head = block(`location = ${composePath(composeParts.pageHead, plan.remote)}`, [
    releases && skipWhenOverridden(plan.remote),
    includeSettings(key(fragmentPaths.head), timeoutMs),
    `proxy_pass ${quote(proxy(fragmentPaths.head) + '$nativegtm_no_args')};`,
    "# The head's stylesheet URLs are an SSI echo of the remote's base URL. (Not sub_filter: it would also run",
    "# over the template's fallback block when the include fails, and garble it.)",
    `set $${REMOTE_BASE_VARIABLE} ${quote(plan.base.href + previewed)};`,
    'ssi on;',
    'ssi_types text/html;',
  ]);
  const body = block(`location = ${composePath(composeParts.pageBody, plan.remote)}`, [
    releases && skipWhenOverridden(plan.remote),
    includeSettings(key(fragmentPaths.body(plan.key)), timeoutMs),
    plan.undecidable &&
      [
        '# A query only decoding could read: no server HTML, the page renders in the browser (pageVariant).',
        block(`if (${plan.undecidable})`, ['return 204;']),
      ].join('\n'),
    "# $nativegtm_no_args: with a variable in proxy_pass, nginx sends this URI as it is, without the visitor's query.",
    `proxy_pass ${quote(proxy(fragmentPaths.body(plan.key)) + '$nativegtm_no_args')};`,
  ]);
  return `${head}\n\n${body}`;
}

/**
 * The fragment relay: a server on a socket in nginx's prefix, reachable by nothing but this configuration, that
 * fetches a remote's files and gives them the site's cache lifetime. (nginx takes the time a copy may be served
 * stale while it is refreshed only from the response's Cache-Control, so it is set here, between the remote and the
 * cache.) With releases, it fetches them from the collector beside nginx, which answers a release's files only with
 * the bytes its record names (@nativegtm/server releases/storeFragments.js): nginx cannot check what it includes.
 * @param {string} socket
 * @param {RemotePlan[]} plans
 * @param {number} timeoutMs
 * @param {boolean} releases
 */
function relayServer(socket, plans, timeoutMs, releases) {
  return `# The fragment relay (see the include locations)\n${block('server', [
    `listen ${quote(`unix:${socket}`)};`,
    ...FRAGMENT_CACHE_HEADERS.map(([name, value]) => `add_header ${name} ${quote(value)} always;`),
    '',
    "# A failed fetch answers an empty 200: the include prints the template's fallback, and the cache keeps the",
    '# answer and refreshes it in the background like any other. (An error status would be kept by nginx without',
    '# a stale period: once a second every document would then wait for the cache lock, up to 500 ms.)',
    block('location @failed', ['default_type text/html;', 'return 200 "";']),
    ...plans.map((plan) => {
      const scheme = plan.base.protocol.slice(0, -1);
      const source = releases
        ? `http://${COLLECTOR_UPSTREAM}${FRAGMENTS_PATH}${plan.remote}/`
        : `${scheme}://${plan.upstream}${plan.base.pathname}`;
      return block(`location /${plan.remote}/`, [remoteFetchSettings(plan, timeoutMs), `proxy_pass ${quote(source)};`]);
    }),
    block('location /', ['return 404;']),
  ])}`;
}

/**
 * The shell's documents: the template (index.html) run through SSI with $page set to the screen.
 * @param {string} header
 * @param {string} page
 * @param {Headers} documentHeaders
 * @param {boolean} [internal]
 */
function documentLocation(header, page, documentHeaders, internal = false) {
  return block(header, [
    internal && 'internal;',
    `set $page ${page};`,
    'ssi on;',
    'ssi_types text/html;',
    'gzip_static off;',
    'gzip on;',
    'gzip_types text/html;',
    headerLines(documentHeaders),
    'rewrite ^ /index.html break;',
  ]);
}

/** Where a document has no file: a path no file is ever written at (documentFiles.js writes <key>.html only). */
const NO_FILE = '/-';

/**
 * The variable naming the file a request's document is sent from, in the screen's documents folder
 * (@nativegtm/contract/documentFiles), or NO_FILE: a personal document (a preview's, a canary side's, an override's)
 * and a query only decoding could read are composed per request.
 * @param {string} screen a remote's name, or NOT_FOUND_SCREEN
 */
const documentFileVariable = (screen) => `$nativegtm_document_${screen.replace(/\W/g, '_')}`;

/**
 * The map behind documentFileVariable, at http level; none when every request of the screen gets its file.
 * @param {string} screen
 * @param {string} key the variant key's expression (RemotePlan's key)
 * @param {{ releases: boolean, undecidable: string | undefined, canaries?: string }} conditions releases: personal
 *   documents exist; undecidable: the variable saying a query cannot be read without decoding; canaries: with
 *   releases, the folder of the canaries nginx lists (canaryFolderOf)
 */
function documentFileMap(screen, key, { releases, undecidable, canaries }) {
  const file = `/${documentFile(screen, key, canaries)}`;
  const tests = [...(releases ? [[PERSONAL_VARIABLE, '']] : []), ...(undecidable ? [[undecidable, '0']] : [])];
  if (tests.length === 0) return { map: '', file };
  return {
    map: block(`map "${tests.map(([variable]) => variable).join(':')}" ${documentFileVariable(screen)}`, [
      `${quote(tests.map(([, shared]) => shared).join(':'))} ${quote(file)};`,
      `default ${quote(NO_FILE)};`,
    ]),
    file: documentFileVariable(screen),
  };
}

/**
 * A screen's documents sent from the files nginx's collector composed (documentFiles.js), each in the encoding the
 * client takes (the .br and .gz files beside it), with a validator; what has no file is composed per request by the
 * screen's named location. The files are renamed into place as they change, and each request opens its file: no
 * open_file_cache, whose copies are checked once a second at best (it would hold a promote back by up to a second).
 * @param {string} header the location's first line
 * @param {string} screen
 * @param {string} documentsDir
 * @param {string} file the file's path in documentsDir, or the variable holding it (documentFileMap)
 * @param {Headers} headers the document's, as the composing location sends them
 * @param {boolean} brotli whether nginx has the brotli_static module
 * @param {boolean} internal
 */
function documentFileLocation(header, screen, documentsDir, file, headers, brotli, internal) {
  return block(header, [
    internal && 'internal;',
    `root ${quote(documentsDir)};`,
    'default_type text/html;',
    brotli && 'brotli_static on;',
    'gzip_static on;',
    headerLines(headers),
    `try_files ${quote(file)} @compose_${screen.replace(/\W/g, '_')};`,
  ]);
}

/**
 * A screen's document composed for its request (SSI): every document without documentsDir, else those
 * documentFileLocation has no file for.
 * @param {string} header
 * @param {string} screen
 * @param {Headers} headers
 * @param {{ documentsDir: string | undefined, file: string, brotli: boolean, internal?: boolean }} options
 */
function screenLocations(header, screen, headers, { documentsDir, file, brotli, internal = false }) {
  if (documentsDir === undefined) return documentLocation(header, screen, headers, internal);
  return [
    documentFileLocation(header, screen, documentsDir, file, headers, brotli, internal),
    documentLocation(`location @compose_${screen.replace(/\W/g, '_')}`, screen, headers),
  ].join('\n');
}

/**
 * An internal location answering fixed text.
 * @param {string} location
 * @param {string} type
 * @param {string} text
 * @param {Headers} [headers]
 */
function textLocation(location, type, text, headers) {
  return block(`location = ${location}`, [
    headers ? `default_type ${type};` : 'internal;',
    headers ? headerLines(headers) : `default_type ${type};`,
    `return 200 ${nginxText(text)};`,
  ]);
}

/**
 * The site head of a screen's documents (an internal include). With releases, it lists the running canaries, and a
 * browser that previews or a canary's visitor gets a private document, and with it its own field-data token, which
 * says whom it is for: the collector signs it (where the key is), through an include of its own whose failure prints
 * nothing.
 * @param {string} screen
 * @param {string} head
 * @param {RemotePlan[] | undefined} plans with releases, the remotes
 */
function siteHeadLocation(screen, head, plans) {
  if (!plans) return textLocation(composePath(composeParts.siteHead, screen), 'text/html', head);
  const { variables } = canariesListed(plans);
  return block(`location = ${composePath(composeParts.siteHead, screen)}`, [
    'internal;',
    'default_type text/html;',
    'ssi on;',
    'ssi_types text/html;',
    block(`if (${PERSONAL_VARIABLE})`, [
      `return 200 ${nginxText(`${head}\n<!--# include virtual="${FIELD_TOKEN_PATH}?cohort=${cohortVariable(screen)}" -->`, [cohortVariable(screen), ...variables])};`,
    ]),
    `return 200 ${nginxText(head, variables)};`,
  ]);
}

/**
 * @param {{ root: string, origin: string, plans: RemotePlan[], timeoutMs: number, documentHeaders: Headers,
 *   revalidate: Headers, releasesDir?: string, overrideOrigins: readonly OriginPattern[], sampleRate: number,
 *   documentsDir?: string, brotli: boolean, notFoundFile: string }} options
 */
function shellLocations({
  root,
  origin,
  plans,
  timeoutMs,
  documentHeaders,
  revalidate,
  releasesDir,
  overrideOrigins,
  sampleRate,
  documentsDir,
  brotli,
  notFoundFile,
}) {
  const releases = releasesDir !== undefined;
  // A browser that previews a release, and a canary's visitor, get personal documents (releaseLocations.js).
  const pageCache = releases ? '$nativegtm_page_cache' : documentCacheControl(200);
  const notFoundCache = releases ? '$nativegtm_not_found_cache' : documentCacheControl(404);
  /** @type {Headers} */
  const robots = releases ? { 'X-Robots-Tag': '$nativegtm_robots' } : {};
  const notFound = [`error_page 404 ${NOT_FOUND_DOCUMENT};`, 'return 404;'];
  // The sample rate, and with releases the running canaries (each remote's, printed by an include).
  const listed = releases ? canariesListed(plans) : undefined;
  const measured = { sampleRate, canaries: listed?.text };
  return [
    ...(releases
      ? [
          '# Previews (releaseLocations.js): whether the browser previews a release that is in the store.',
          previewCheck(),
        ]
      : []),
    documentsDir === undefined
      ? "# Page routes: documents composed per request (SSI) from index.html and the pages' server-rendered HTML."
      : [
          "# Page routes: a document for everyone is a file nginx's collector composed from index.html and the pages'",
          '# server-rendered HTML whenever they changed (documentFiles.js); others are composed per request (SSI).',
        ].join('\n'),
    '# A CDN may keep them briefly (documentCaching.js). Only a file has a validator: SSI output has none.',
    ...plans.map((plan) =>
      screenLocations(
        `location ~* ${quote(routePattern(plan.route))}`,
        plan.remote,
        { ...documentHeaders, 'Cache-Control': pageCache, ...robots },
        { documentsDir, file: plan.file, brotli },
      ),
    ),
    '',
    "# Unknown paths: HTTP 404 with the shell's own 404 screen, composed the same way.",
    block('location /', notFound),
    screenLocations(
      `location = ${NOT_FOUND_DOCUMENT}`,
      NOT_FOUND_SCREEN,
      { ...documentHeaders, 'Cache-Control': notFoundCache, ...robots },
      { documentsDir, file: notFoundFile, brotli, internal: true },
    ),
    '',
    '# The template is never served as it is.',
    block('location = /index.html', notFound),
    '',
    ...plans.map((plan) => `${remoteIncludeLocations(plan, timeoutMs, releases)}\n`),
    ...plans.map((plan) =>
      siteHeadLocation(plan.remote, siteHead(origin, plan.route, measured), releases ? plans : undefined),
    ),
    siteHeadLocation(NOT_FOUND_SCREEN, siteHead(origin, undefined, measured), releases ? plans : undefined),
    '',
    "# A private document's field-data token, from the collector; nothing when it does not answer. It is signed for",
    "# the visitor's network: the collector applies TRUSTED_PROXIES to what nginx saw (clientNetwork.js).",
    block(`location = ${FIELD_TOKEN_PATH}`, [
      'internal;',
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      'proxy_pass_request_headers off;',
      ...CLIENT_ADDRESS_HEADERS,
      'proxy_pass_request_body off;',
      'proxy_connect_timeout 200ms;',
      'proxy_read_timeout 500ms;',
      'proxy_intercept_errors on;',
      'error_page 400 403 404 500 502 503 504 = @no_field_token;',
      `proxy_pass http://${COLLECTOR_UPSTREAM};`,
    ]),
    block('location @no_field_token', ['default_type text/html;', 'return 200 "";']),
    '',
    block(`location = ${composePath(composeParts.pageHead, NOT_FOUND_SCREEN)}`, [
      'internal;',
      'default_type text/html;',
      `alias ${quote(path.join(root, fragmentPaths.head))};`,
    ]),
    '',
    block(`location = ${composePath(composeParts.pageBody, NOT_FOUND_SCREEN)}`, [
      'internal;',
      'default_type text/html;',
      `alias ${quote(path.join(root, fragmentPaths.body('index')))};`,
    ]),
    '',
    "# A failed include: an empty body, so SSI prints the template's fallback block.",
    block(`location = ${EMPTY_INCLUDE}`, ['internal;', 'return 204;']),
    '',
    '# Browser reports (CSP violations, remotes that failed, files refused for their integrity): limited per client,',
    '# then passed to the collector beside nginx, which logs and counts them as the built-in server does.',
    block(`location = ${REPORTS_PATH}`, [
      `client_max_body_size ${MAX_REPORT_BYTES / 1024}k;`,
      'limit_req zone=nativegtm_reports burst=20 nodelay;',
      'limit_req_status 429;',
      block('limit_except POST', ['deny all;']),
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      ...['Cookie', 'User-Agent', 'Referer'].map((header) => `proxy_set_header ${header} "";`),
      ...CLIENT_ADDRESS_HEADERS,
      "# A collector that does not answer loses the report, not a line in the visitor's console.",
      'error_page 502 504 = @report_lost;',
      `proxy_pass http://${COLLECTOR_UPSTREAM};`,
    ]),
    block('location @report_lost', ['add_header Cache-Control "no-store" always;', 'return 204;']),
    '',
    '# Field data: passed to the collector beside nginx, which checks, keeps and counts it (nativegtm-collect).',
    block(`location = ${FIELD_DATA_PATH}`, [
      `client_max_body_size ${MAX_BEACON_BYTES / 1024}k;`,
      block('limit_except POST', ['deny all;']),
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      '# Nothing about the visitor goes further but its address, which is never kept: no cookie, no user agent.',
      ...['Cookie', 'User-Agent', 'Referer'].map((header) => `proxy_set_header ${header} "";`),
      ...CLIENT_ADDRESS_HEADERS,
      "# A collector that does not answer (stopped, restarting) loses the beacon, not a line in the visitor's console:",
      "# nginx's error log says so.",
      'error_page 502 504 = @field_data_lost;',
      `proxy_pass http://${COLLECTOR_UPSTREAM};`,
    ]),
    block('location @field_data_lost', ['add_header Cache-Control "no-store" always;', 'return 204;']),
    '',
    '# For load balancers: whether this node can serve, as the collector beside nginx judges it (remotes.json, and the',
    '# copy of a store on PostgreSQL); a node whose collector does not answer is not ready: it would not keep up.',
    block(`location = ${READINESS_PATH}`, [
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      'error_page 502 504 = @not_ready;',
      `proxy_pass http://${COLLECTOR_UPSTREAM};`,
    ]),
    block('location @not_ready', [
      'default_type text/plain;',
      'add_header Cache-Control "no-store" always;',
      'return 503 "not ready: the field-data collector beside nginx does not answer\\n";',
    ]),
    '',
    textLocation('/robots.txt', 'text/plain', robotsTxt(origin), revalidate),
    ...(releasesDir === undefined
      ? []
      : [
          `\n${previewLocations({
            store: releasesDir,
            plans,
            secure: origin.startsWith('https:'),
            base: revalidate,
            template: readTemplate(root),
          })}`,
          `\n${overrideLocations({
            plans,
            patterns: overrideOrigins,
            secure: origin.startsWith('https:'),
            personal: { ...revalidate, 'Cache-Control': PERSONAL_CACHE_CONTROL, 'X-Robots-Tag': 'noindex' },
          })}`,
        ]),
    '',
    textLocation(
      '/sitemap.xml',
      'application/xml',
      sitemapXml(
        origin,
        plans.map((plan) => plan.route),
      ),
      revalidate,
    ),
  ].join('\n');
}

/**
 * The shell's index.html as generated from (its stylesheets are linked by the preview's pages), or nothing: those
 * pages are still usable unstyled.
 * @param {string} root the shell's dist/
 */
function readTemplate(root) {
  try {
    return fs.readFileSync(path.join(root, 'index.html'), 'utf8');
  } catch {
    return '';
  }
}

/**
 * The shell's /remotes.json: the collector beside nginx answers it (@nativegtm/server releases/vouchedRemotes.js), as
 * the integrity of each remote's list it carries is the store's to vouch for. nginx passes on its own decision of whom
 * the request is for (releases/nginxChoice.js), the releases its documents are composed with, and nothing of the
 * visitor's request: no header a browser sent reaches the collector.
 * @param {Headers} base the headers of every answer nginx gives itself (the collector's carry them, and its
 *   Cache-Control: public or personal)
 * @param {RemotePlan[] | undefined} plans with releases, the remotes whose release a request may choose
 */
function remotesJsonLocations(base, plans) {
  return [
    "# The shell's remotes.json, with the integrity of each remote's list of its files: the collector beside nginx",
    '# vouches for it from the store, for whom nginx says the request is. Without the collector, browsers load no',
    '# remote (the node is not ready then either: /readyz).',
    block(`location = ${REMOTES_CONFIG_PATH}`, [
      'proxy_http_version 1.1;',
      'proxy_set_header Connection "";',
      'proxy_pass_request_headers off;',
      'proxy_pass_request_body off;',
      ...(plans
        ? [
            `proxy_set_header ${CHOICE_HEADERS.personal} ${PERSONAL_VARIABLE};`,
            `proxy_set_header ${CHOICE_HEADERS.overrideRemote} ${OVERRIDE_REMOTE_VARIABLE};`,
            `proxy_set_header ${CHOICE_HEADERS.overrideOrigin} ${OVERRIDE_ORIGIN_VARIABLE};`,
            ...plans.map(
              (plan) => `proxy_set_header ${CHOICE_HEADERS.release(plan.remote)} ${releasePathVariable(plan.remote)};`,
            ),
          ]
        : []),
      "# The collector's answer carries the common headers already (its route table's).",
      '# A collector that does not answer fails fast: the shell shows its error screen, not a page that waits a minute.',
      'proxy_connect_timeout 1s;',
      `proxy_read_timeout ${REMOTES_JSON_TIMEOUT_S}s;`,
      'error_page 502 504 = @remotes_unavailable;',
      `proxy_pass http://${COLLECTOR_UPSTREAM};`,
    ]),
    block('location @remotes_unavailable', [
      'default_type text/plain;',
      headerLines({ ...base, 'Cache-Control': 'no-store' }),
      'return 503 "Service unavailable: the collector beside nginx does not answer\\n";',
    ]),
    '',
  ].join('\n');
}

/**
 * One deployable's server block.
 * @param {{ deployable: Deployable, root: string, port: number, listenHost?: string, origins: string[],
 *   releasesDir?: string, shell: { origin: string, plans: RemotePlan[], timeoutMs: number,
 *   overrideOrigins: readonly OriginPattern[], sampleRate: number, documentsDir?: string, brotli: boolean,
 *   notFoundFile: string } }} options
 */
function serverBlock({ deployable, root, port, listenHost, origins, releasesDir, shell }) {
  const host = deployable.role === 'host';
  /** @type {Headers} */
  const base = { ...COMMON_HEADERS, ...(host ? {} : { 'Access-Control-Allow-Origin': '*' }) };
  const revalidate = { ...base, 'Cache-Control': 'no-cache' };
  const immutable = { ...base, 'Cache-Control': 'public, max-age=31536000, immutable' };
  // With the release store, the shell's documents are an overriding browser's too (overrideLocations.js).
  const documentHeaders = {
    ...revalidate,
    ...(host && releasesDir !== undefined ? overridableHtmlHeaders(origins) : htmlHeaders(host ? origins : [])),
  };
  return `# ${deployable.name} (${deployable.role})\n${block('server', [
    `listen ${listenHost ? `${listenHost}:` : ''}${port};`,
    `root ${quote(root)};`,
    'index index.html;',
    '',
    "# nginx's 501 for a transfer coding it does not know is about the client's request: 400, as the built-in server",
    '# answers, so only faults of the site are 5xx. (Its 505 for an unknown HTTP version cannot be mapped: nginx',
    '# answers it before the request can be redirected.)',
    'error_page 501 =400 @bad_request;',
    block('location @bad_request', ['default_type text/plain;', 'return 400 "Bad request\\n";']),
    '',
    '# For load balancers: this server answers (the built-in server answers the same).',
    textLocation(HEALTH_PATH, 'text/plain', 'ok\n', { ...base, 'Cache-Control': 'no-store' }),
    '',
    host
      ? shellLocations({ root, ...shell, documentHeaders, revalidate, releasesDir })
      : releasesDir === undefined && block('location = /index.html', [headerLines(documentHeaders)]),
    '',
    host && remotesJsonLocations(base, releasesDir === undefined ? undefined : shell.plans),
    !host && releasesDir !== undefined
      ? remoteReleaseLocations({
          store: storeLayout(releasesDir, /** @type {string} */ (deployable.remote)).dir,
          dist: root,
          revalidate,
          documentHeaders,
        })
      : [
          block(`location ~ "${HASHED_ASSET.source}"`, [headerLines(immutable), 'try_files $uri @missing;']),
          '',
          "# A path with an extension is a file: missing means 404, never the app's HTML.",
          block(`location ~ "${FILE_EXTENSION.source}"`, [headerLines(revalidate), 'try_files $uri @missing;']),
          !host && '',
          !host && block('location /', [headerLines(documentHeaders), 'try_files $uri $uri/ @missing;']),
        ]
          .filter((line) => line !== false)
          .join('\n'),
    '',
    block('location @missing', ['default_type text/plain;', headerLines(revalidate), 'return 404 "Not found\\n";']),
  ])}`;
}

/** The fragment timeout and the share of page views measured, unless given. */
const DEFAULT_FRAGMENT_TIMEOUT_MS = 400;
const DEFAULT_SAMPLE_RATE = 1;

/**
 * What nginx's collector composes the documents for everyone with (@nativegtm/contract/documentFiles): the values
 * the configuration rendered from the same options composes with, and with a release store the remotes whose
 * canaries it lists, in its order (its plans': the remotes remotes.json names).
 * @param {{ remotes: Partial<Record<string, string>>, roots?: Record<string, string>, origin?: string,
 *   fragmentTimeoutMs?: number, sampleRate?: number, releasesDir?: string }} options
 * @returns {import('@nativegtm/contract/documentFiles').DocumentsPlan}
 */
function documentsPlan({
  remotes,
  roots = {},
  origin = DEFAULT_ORIGIN,
  fragmentTimeoutMs = DEFAULT_FRAGMENT_TIMEOUT_MS,
  sampleRate = DEFAULT_SAMPLE_RATE,
  releasesDir,
}) {
  const shell = /** @type {Deployable} */ (deployables.find((deployable) => deployable.role === 'host'));
  const listed = deployables
    .filter((deployable) => deployable.role === 'remote' && remotes[/** @type {string} */ (deployable.remote)])
    .map((deployable) => /** @type {string} */ (deployable.remote));
  return {
    shellRoot: path.resolve(roots[shell.name] ?? path.join(shell.dir, 'dist')),
    origin: siteOrigin(origin),
    sampleRate,
    fragmentTimeoutMs,
    ...(releasesDir === undefined ? {} : { canaryRemotes: listed }),
  };
}

/**
 * Where nginx's master writes its pid, in the prefix the configuration is generated for.
 * @param {string} prefix
 */
const pidFileOf = (prefix) => path.join(prefix, 'nginx.pid');

/**
 * The configuration's text.
 * @param {{ remotes: Partial<Record<string, string>>, queries: Record<string, PageQuery>, prefix: string,
 *   roots?: Record<string, string>, ports?: Record<string, number>, listenHost?: string,
 *   mimeTypes?: string, origin?: string, fragmentTimeoutMs?: number, releasesDir?: string, collectorPort?: number,
 *   sampleRate?: number, overrideOrigins?: readonly OriginPattern[], documentsDir?: string,
 *   brotliModule?: string }} options
 *   remotes: remotes.json's valid entries; queries: each page's query parameters (readPageQueries.js); remotesFile:
 *   where the shell's /remotes.json is served from, when not its dist/; releasesDir: the release store
 *   (releaseLocations.js), none to serve dist/ only; collectorPort: the field-data collector's loopback port
 *   (COLLECTOR_PORT); sampleRate: the share of page views measured (RUM_SAMPLE_RATE); overrideOrigins: where overrides
 *   may come from (OVERRIDE_ORIGINS, loopback unless given; with the release store only: overrideLocations.js);
 *   documentsDir: where nginx's collector composes the documents for everyone (its DOCUMENTS_DIR), none to compose
 *   every document per request; brotliModule: the brotli_static module's file, to send their .br files
 * @returns {string}
 */
function renderNginxConfig({
  remotes,
  queries,
  prefix,
  roots = {},
  ports = {},
  listenHost,
  origin = DEFAULT_ORIGIN,
  fragmentTimeoutMs = DEFAULT_FRAGMENT_TIMEOUT_MS,
  mimeTypes = '/etc/nginx/mime.types',
  releasesDir,
  collectorPort = 9465,
  sampleRate = DEFAULT_SAMPLE_RATE,
  overrideOrigins = DEFAULT_OVERRIDE_ORIGINS,
  documentsDir,
  brotliModule,
}) {
  if (!queries) throw new Error("renderNginxConfig needs the pages' queries: generateNginxConfig reads them");
  const origins = remoteOrigins(remotes);
  const releases = releasesDir !== undefined;
  const { plans, notFound } = withDocumentFiles(
    deployables
      .filter((d) => d.role === 'remote')
      .map((deployable, index) => remotePlan(deployable, remotes, queries, index))
      .filter((plan) => plan !== undefined),
    releases,
  );
  const shell = {
    origin: siteOrigin(origin),
    plans,
    timeoutMs: fragmentTimeoutMs,
    overrideOrigins,
    sampleRate,
    documentsDir,
    brotli: brotliModule !== undefined,
    notFoundFile: notFound.file,
  };
  const fileMaps = documentsDir === undefined ? [] : [...plans.map((plan) => plan.fileMap), notFound.map];
  const relaySocket = path.join(prefix, 'fragment-relay.sock');
  const servers = deployables.map((deployable) =>
    serverBlock({
      deployable,
      root: roots[deployable.name] ?? path.join(deployable.dir, 'dist'),
      port: ports[deployable.name] ?? deployable.port,
      listenHost,
      origins,
      releasesDir,
      shell,
    }),
  );
  const http = block('http', [
    `include ${quote(mimeTypes)};`,
    'default_type application/octet-stream;',
    'charset utf-8;',
    'charset_types text/css application/javascript application/json;',
    'access_log off;',
    'server_tokens off;',
    'sendfile on;',
    '# A client that trickles its request in holds a connection: 408 after as long as the built-in server allows.',
    `client_header_timeout ${HEADER_TIMEOUT_MS / 1000}s;`,
    `client_body_timeout ${HEADER_TIMEOUT_MS / 1000}s;`,
    'gzip_static on;',
    'gzip_vary on;',
    "# The site's maps define more variables than nginx's default hash holds in one lookup.",
    'variables_hash_max_size 2048;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (kind) => `${kind}_temp_path ${quote(path.join(prefix, kind))};`,
    ),
    '# Browser reports: one a second per client address on average, 20 at once (the built-in server allows the same).',
    'limit_req_zone $binary_remote_addr zone=nativegtm_reports:1m rate=1r/s;',
    '# Empty, for proxy_pass URIs that must be sent as they are (with a variable in it, nginx adds no query).',
    block('map $uri $nativegtm_no_args', ['default "";']),
    '',
    "# Remotes' server-rendered files, kept by every worker's shared cache (see the include locations).",
    `proxy_cache_path ${quote(path.join(prefix, 'fragments'))} levels=1 keys_zone=nativegtm_fragments:1m max_size=64m inactive=30s use_temp_path=off;`,
    block(`map $msec $${CURRENT_SECOND_VARIABLE}`, [`"~^(?<second>[0-9]+)" $second;`]),
    block(`upstream ${RELAY_UPSTREAM}`, [`server ${quote(`unix:${relaySocket}`)};`, ...keepalive(16)]),
    block(`upstream ${COLLECTOR_UPSTREAM}`, [`server 127.0.0.1:${collectorPort};`, ...keepalive(32)]),
    '',
    ...plans.map((plan) => `${upstreamBlock(plan)}\n`),
    ...plans.filter((plan) => plan.maps).map((plan) => `${plan.maps}\n`),
    ...fileMaps.filter((map) => map !== '').map((map) => `${map}\n`),
    ...(releasesDir === undefined
      ? []
      : [
          '# Releases and previews (releaseLocations.js).',
          releaseMaps(releasesDir, plans),
          previewRouteMap(plans),
          block(`map ${PERSONAL_VARIABLE} $nativegtm_page_cache`, [
            `"" ${quote(documentCacheControl(200))};`,
            `default ${quote(PERSONAL_CACHE_CONTROL)};`,
          ]),
          block(`map ${PERSONAL_VARIABLE} $nativegtm_not_found_cache`, [
            `"" ${quote(documentCacheControl(404))};`,
            `default ${quote(PERSONAL_CACHE_CONTROL)};`,
          ]),
          overrideMaps(plans, overrideOrigins),
          block(`map "${PREVIEWING_VARIABLE}${OVERRIDE_REMOTE_VARIABLE}" $nativegtm_robots`, [
            '"" "";',
            'default "noindex";',
          ]),
          '',
        ]),
    servers.join('\n\n'),
    '',
    relayServer(relaySocket, plans, fragmentTimeoutMs, releasesDir !== undefined),
  ]);
  return `${[
    '# Generated by @nativegtm/server (npm run nginx:config): edit remotes.json and regenerate rather than editing this file.',
    ...(documentsDir !== undefined && brotliModule !== undefined ? [`load_module ${quote(brotliModule)};`] : []),
    '# One worker per core: documents are composed by whichever worker takes the connection.',
    'worker_processes auto;',
    'worker_rlimit_nofile 8192;',
    `pid ${quote(pidFileOf(prefix))};`,
    `error_log ${quote(path.join(prefix, 'error.log'))} warn;`,
    '',
    block('events', [
      "# A document holds its visitor's connection and two to remotes (four when nginx serves the remotes too).",
      'worker_connections 4096;',
    ]),
    '',
    http,
  ].join('\n')}\n`;
}

module.exports = { renderNginxConfig, pidFileOf, documentsPlan };

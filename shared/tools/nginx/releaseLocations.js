// The release store in nginx (docs/releasing.md), with no reload when a release is promoted or rolled back: each
// remote's server answers from the live release first (the `live` link, which nginx follows per request), then the
// content-hashed files of every release kept, then the remote's dist/; any release is served whole under
// /releases/<id>/, which is also what a running canary's visitors load. The shell's server starts and ends previews (a
// cookie), puts each request on its side of each running canary, and, for a browser that previews or a canary's
// visitor, points its includes and its /remotes.json (through the collector) at that release. Same rules as the built-in server (releases/).
//
// Canaries are read when nginx loads its configuration, not per request: each remote's map from the bucket cookie to
// its side, and the list the documents carry, include the files the canary command writes into the canary's folder
// (releases/canaryInStore.js), and the command reloads nginx after each change (@nativegtm/server/nginxReload.js). A document outside any
// canary therefore costs no file test and no subrequest for canaries, whether or not one runs.
const { HASHED_ASSET } = require('@nativegtm/contract/assetNames');
const { NOT_FOUND_SCREEN } = require('@nativegtm/contract/composePaths');
const {
  PREVIEW_COOKIE,
  PREVIEW_END_PATH,
  PREVIEW_FAILED_SUFFIX,
  PREVIEW_MARK,
  PREVIEW_MAX_AGE_SECONDS,
  PREVIEW_PATH_PREFIX,
  RELEASE_ID,
  RELEASE_PATH_PREFIX,
} = require('@nativegtm/contract/releases');
const { block } = require('./indent');
const { headerLines, nginxText, quote } = require('./syntax');
const { previewCookies, PREVIEW_HEADERS } = require('@nativegtm/server/releases/previews');
const {
  previewPage,
  previewPageHeaders,
  previewPageTexts,
  shellStylesheets,
} = require('@nativegtm/server/releases/previewPages');
const { BUCKET_COOKIE } = require('@nativegtm/contract/canaryBuckets');
const { CANARY_FILES, LISTED_KEY } = require('@nativegtm/store/canaryInStore');
const { storeLayout } = require('@nativegtm/store/layout');
const { RELEASE_MANIFEST } = require('@nativegtm/store/releaseInStore');
const { FROM_THE_SITE_VARIABLE, OVERRIDE_REMOTE_VARIABLE } = require('./overrideLocations');
const { cohortOf, releaseSource } = require('@nativegtm/contract/releaseChoice');

/** @typedef {Record<string, string>} Headers */
/** @typedef {import('@nativegtm/contract/releaseChoice').ReleaseSource} ReleaseSource */
/** @typedef {import('@nativegtm/contract/releaseChoice').Side} Side */

/** A visitor's place in a remote's canary, as nginx's side variables hold it (undefined: empty, on no side). */
const SIDES = /** @type {const} */ ([undefined, 'canary', 'control']);
/** @typedef {{ remote: string, route: string, base: URL }} PreviewPlan */

/** Cache-Control of a remote's file, by its name: content-hashed files are immutable, others revalidated. */
const FILE_CACHE_VARIABLE = '$nativegtm_file_cache';
/** The remote whose release the visitor's browser previews (a preview cookie naming a release in the store), else empty. */
const PREVIEWING_VARIABLE = '$nativegtm_previewing';
/** The remote a well-formed preview cookie names, whether or not its release is in the store. */
const PREVIEW_COOKIE_REMOTE_VARIABLE = '$nativegtm_preview_cookie_remote';
/** The store path of the manifest of the release a well-formed preview cookie names, else one that is never there. */
const PREVIEW_MANIFEST_VARIABLE = '$nativegtm_preview_manifest';
/** A name in the store no remote can have (remote names start with a letter): never a file. */
const NO_PREVIEW = '.no-preview';
/** Non-empty when what the request is answered depends on the visitor: a preview, or a side of a canary. */
const PERSONAL_VARIABLE = '$nativegtm_personal';

const releaseIdPattern = RELEASE_ID.source.replace(/^\^|\$$/g, '');

/**
 * The prefix a remote's files are fetched under for this request: `releases/<id>/` when it is previewed,
 * `releases/<id>/` of its canary on its canary's side, else empty (braced, to be followed by a path).
 * @param {string} remote
 */
const releasePathVariable = (remote) => `\${nativegtm_release_path_${remote}}`;
/**
 * The request's side of the remote's running canary: `canary`, `control` or empty.
 * @param {string} remote
 */
const sideVariable = (remote) => `$nativegtm_side_${remote}`;
/**
 * `<remote>=<share>` while the remote's canary runs, else empty: what the documents list of it.
 * @param {string} remote
 */
const listedVariable = (remote) => `$nativegtm_listed_${remote}`;
/**
 * `releases/<id>/` of the remote's running canary, else empty.
 * @param {string} remote
 */
const canaryPathVariable = (remote) => `$nativegtm_canary_path_${remote}`;

/**
 * The maps the release locations read (http level).
 * @param {string} storeDir
 * @param {PreviewPlan[]} plans
 */
function releaseMaps(storeDir, plans) {
  const remotes = plans.map((plan) => plan.remote).join('|');
  /** @param {string} remote @param {string} file one of nginx's canary files (canaryInStore.js) */
  const canaryMap = (remote, file) =>
    // A pattern: a remote with no canary yet has no such file, which nginx takes as an empty include.
    `include ${quote(`${storeLayout(storeDir, remote).nginxCanary}/${file.replace(/\.map$/, '*.map')}`)};`;
  return [
    block(`map $uri ${FILE_CACHE_VARIABLE}`, [
      `${quote(`~${HASHED_ASSET.source}`)} "public, max-age=31536000, immutable";`,
      'default "no-cache";',
    ]),
    "# The remote a well-formed preview cookie names, and its release's manifest in the store: previewCheck sets",
    `# ${PREVIEWING_VARIABLE} from them, so that a preview of a release no longer in the store counts for nothing.`,
    block(`map $cookie_${PREVIEW_COOKIE} ${PREVIEW_COOKIE_REMOTE_VARIABLE}`, [
      `${quote(`~^(?<ngtmpreviewremote>${remotes})\\.${releaseIdPattern}$`)} $ngtmpreviewremote;`,
      'default "";',
    ]),
    block(`map $cookie_${PREVIEW_COOKIE} ${PREVIEW_MANIFEST_VARIABLE}`, [
      `${quote(`~^(?<ngtmpreviewedremote>${remotes})\\.(?<ngtmpreviewedid>${releaseIdPattern})$`)} ${quote(`${storeDir}/$ngtmpreviewedremote/$ngtmpreviewedid/${RELEASE_MANIFEST}`)};`,
      `default ${quote(`${storeDir}/${NO_PREVIEW}`)};`,
    ]),
    ...plans.map((plan, index) =>
      block(`map $cookie_${PREVIEW_COOKIE} $nativegtm_preview_path_${plan.remote}`, [
        `${quote(`~^${plan.remote}\\.(?<ngtmpreview${index}>${releaseIdPattern})$`)} "${RELEASE_PATH_PREFIX}$ngtmpreview${index}/";`,
        'default "";',
      ]),
    ),
    "# Canaries: each remote's side for the visitor's bucket, as the browser sends it (nothing else ever names a",
    "# side), and what documents list of it; written from the running canary's state whenever nginx is configured",
    '# or reloaded (the canary command reloads it), and read when nginx loads this configuration.',
    ...plans.flatMap((plan) => [
      block(`map $cookie_${BUCKET_COOKIE} ${sideVariable(plan.remote)}`, [
        'default "";',
        canaryMap(plan.remote, CANARY_FILES.sides),
      ]),
      block(`map ${LISTED_KEY} ${listedVariable(plan.remote)}`, [
        'default "";',
        canaryMap(plan.remote, CANARY_FILES.listed),
      ]),
      block(`map ${LISTED_KEY} ${canaryPathVariable(plan.remote)}`, [
        'default "";',
        canaryMap(plan.remote, CANARY_FILES.release),
      ]),
    ]),
    block(
      `map "${PREVIEWING_VARIABLE}${OVERRIDE_REMOTE_VARIABLE}${plans.map((plan) => sideVariable(plan.remote)).join('')}" ${PERSONAL_VARIABLE}`,
      ['"" "";', 'default 1;'],
    ),
    "# Each remote's release for the request, and whom each screen's document is for, by the rule both servers share",
    '# (@nativegtm/contract/releaseChoice), written out for every override, preview and side there can be.',
    ...plans.map((plan) => releasePathMap(plan.remote, plans)),
    ...[...plans.map((plan) => plan.remote), NOT_FOUND_SCREEN].map((screen) => cohortMap(screen, plans)),
  ].join('\n');
}

/**
 * The map from what a request brings (the overridden remote, the previewed one, its side of `remote`'s canary) to the
 * prefix `remote`'s files are fetched under: each combination there can be, answered by releaseSource.
 * @param {string} remote
 * @param {PreviewPlan[]} plans
 */
function releasePathMap(remote, plans) {
  const names = ['', ...plans.map((plan) => plan.remote)];
  /** @type {Record<ReleaseSource, string>} */
  const prefixes = {
    // An overridden remote's files come from its dev server, and its includes are skipped: nothing to fetch here.
    override: '""',
    preview: `$nativegtm_preview_path_${remote}`,
    canary: canaryPathVariable(remote),
    live: '""',
  };
  const lines = names.flatMap((override) =>
    names.flatMap((preview) =>
      SIDES.map((side) => {
        const source = releaseSource(remote, { override: override || undefined, preview: preview || undefined, side });
        return `${quote(`${override}:${preview}:${side ?? ''}`)} ${prefixes[source]};`;
      }),
    ),
  );
  return block(
    `map "${OVERRIDE_REMOTE_VARIABLE}:${PREVIEWING_VARIABLE}:${sideVariable(remote)}" $nativegtm_release_path_${remote}`,
    [...lines, 'default "";'],
  );
}

/**
 * The shell server's last rewrite lines: whether the preview cookie names a release that is in the store, as the
 * built-in server checks it. They run for every request and every SSI include, so the file test is made only for a
 * well-formed preview cookie: without one, `break` ends the server's rewrite lines (a stat per include cost nginx
 * 6 to 9 % of its documents/s: bench:compare).
 */
function previewCheck() {
  return [
    `set ${PREVIEWING_VARIABLE} "";`,
    block(`if (${PREVIEW_COOKIE_REMOTE_VARIABLE} = "")`, ['break;']),
    block(`if (-f ${PREVIEW_MANIFEST_VARIABLE})`, [`set ${PREVIEWING_VARIABLE} ${PREVIEW_COOKIE_REMOTE_VARIABLE};`]),
  ].join('\n');
}

/**
 * The variable holding whom a personal document of `screen` is for (@nativegtm/contract/fieldData COHORT).
 * @param {string} screen the page's remote, or the 404 screen
 */
const cohortVariable = (screen) => `$nativegtm_cohort_${screen.replace(/\W/g, '_')}`;

/**
 * The map from what a request brings (the overridden remote, the previewed one, its side of each remote's canary) to
 * whom a document of `screen` is for: cohortOf's answers, for every combination of sides (an override or a preview
 * comes before any side, so each is one pattern).
 * @param {string} screen the page's remote, or the 404 screen
 * @param {PreviewPlan[]} plans
 */
function cohortMap(screen, plans) {
  const remotes = plans.map((plan) => plan.remote);
  const pageRemote = remotes.includes(screen) ? screen : undefined;
  const combinations = remotes.reduce(
    (partial) => partial.flatMap((sides) => SIDES.map((side) => [...sides, side])),
    /** @type {Side[][]} */ ([[]]),
  );
  const cohort = (
    /** @type {import('@nativegtm/contract/releaseChoice').Request} */ request,
    /** @type {Side[]} */ sides,
  ) =>
    cohortOf(
      { ...request, sides: Object.fromEntries(remotes.map((remote, index) => [remote, sides[index]])) },
      pageRemote,
      remotes,
    );
  const none = remotes.map(() => undefined);
  return block(
    `map "${OVERRIDE_REMOTE_VARIABLE}:${PREVIEWING_VARIABLE}:${remotes.map(sideVariable).join(':')}" ${cohortVariable(screen)}`,
    [
      `"~^[^:]+:" ${quote(String(cohort({ override: remotes[0] }, none)))};`,
      `"~^:[^:]+:" ${quote(String(cohort({ preview: remotes[0] }, none)))};`,
      ...combinations.flatMap((sides) => {
        const answer = cohort({}, sides);
        return answer === undefined
          ? []
          : [`${quote(`::${sides.map((side) => side ?? '').join(':')}`)} ${quote(answer)};`];
      }),
      'default "";',
    ],
  );
}

/**
 * What the documents list of the running canaries: each remote's `<remote>=<share>`, empty without a canary (the
 * variables a site head's text may carry).
 * @param {PreviewPlan[]} plans
 */
function canariesListed(plans) {
  const variables = plans.map((plan) => listedVariable(plan.remote));
  return { text: variables.join(' '), variables };
}

/**
 * A remote's locations when it is served from the store (the server block's health and @missing stay).
 * @param {{ store: string, dist: string, revalidate: Headers, documentHeaders: Headers }} options
 *   store: the remote's folder in the release store
 */
function remoteReleaseLocations({ store, dist, revalidate, documentHeaders }) {
  const files = { ...revalidate, 'Cache-Control': FILE_CACHE_VARIABLE };
  const documents = { ...documentHeaders };
  return [
    '# Releases (docs/releasing.md): the live release first (`live` is a link, followed per request), then the',
    '# content-hashed files of every release kept (a tab holding an older manifest finds its chunks), then dist/.',
    block(`location ~ ${quote(`^/${RELEASE_PATH_PREFIX}${releaseIdPattern}/`)}`, [
      "# One release whole, whether live or not: what a preview and a canary's visitors load.",
      `root ${quote(store)};`,
      headerLines(files),
      `rewrite ${quote(`^/${RELEASE_PATH_PREFIX}(.*)$`)} /$1 break;`,
      'try_files $uri @missing;',
    ]),
    block(`location ~ "${HASHED_ASSET.source}"`, [
      `root ${quote(store)};`,
      headerLines(files),
      'try_files /live$uri /assets$uri @dist;',
    ]),
    block('location = /', [`root ${quote(store)};`, headerLines(documents), 'try_files /live/index.html @dist_page;']),
    block('location = /index.html', [
      `root ${quote(store)};`,
      headerLines(documents),
      'try_files /live$uri @dist_page;',
    ]),
    block('location /', [`root ${quote(store)};`, headerLines(files), 'try_files /live$uri @dist;']),
    block('location @dist', [`root ${quote(dist)};`, headerLines(files), 'try_files $uri @missing;']),
    block('location @dist_page', [`root ${quote(dist)};`, headerLines(documents), 'try_files $uri $uri/ @missing;']),
  ].join('\n');
}

/** What a preview's start does (previewStartMaps): start, ask, or refuse. Set from the internal location's names. */
const PREVIEW_STEP_VARIABLE = '$nativegtm_preview_step';
/** `failed` when the release's gate failed, `+mark` added when the link's mark is in the store. */
const PREVIEW_GATE_VARIABLE = '$nativegtm_preview_gate';
/** The internal locations that answer a start with a page instead of a cookie, by step. */
const PREVIEW_PAGE_LOCATION = '/_nativegtm_preview_';
const PREVIEW_PAGE_VARIABLES = [
  '$nativegtm_preview_remote',
  '$nativegtm_preview_id',
  '$nativegtm_preview_short',
  '$nativegtm_preview_action',
  '$nativegtm_preview_route',
];

/**
 * The shell's preview locations: start (`/_preview/<remote>/<id>[/<mark>]`, only a release that is in the store, and
 * one whose gate failed only with its mark; a link from another site is asked, a post from one refused, as the
 * built-in server does: releases/previews.js) and end. (The /remotes.json a previewing browser or a canary's visitor
 * gets is the collector's, from what these maps decided: renderConfig.js remotesJsonLocations.)
 * @param {{ store: string, plans: PreviewPlan[], secure: boolean, base: Headers, template: string }} options
 *   template: the shell's index.html, whose stylesheets the preview's pages link
 */
function previewLocations({ store, plans, secure, base, template }) {
  // The same two cookies as the built-in server (releases/previews.js).
  /** @param {string} value @param {number} maxAge @param {string} [notice] */
  const setCookies = (value, maxAge, notice) =>
    previewCookies(value, maxAge, secure, notice)
      .map((cookie) => `add_header Set-Cookie ${quote(cookie)} always;`)
      .join('\n');
  const personal = { ...base, 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' };
  const names = plans.map((plan) => plan.remote).join('|');
  const release = '$nativegtm_preview_remote/$nativegtm_preview_id';
  const [remote, id, shortId, action, route] = PREVIEW_PAGE_VARIABLES;
  /** @param {boolean} failed */
  const texts = (failed) =>
    previewPageTexts({
      remote: /** @type {string} */ (remote),
      id: /** @type {string} */ (id),
      shortId: /** @type {string} */ (shortId),
      action: /** @type {string} */ (action),
      route: /** @type {string} */ (route),
      failed,
    });
  const stylesheets = shellStylesheets(template);
  // Its Content-Type is nginx's (default_type, and the charset every answer gets).
  const pageHeaders = Object.fromEntries(
    Object.entries(previewPageHeaders(PREVIEW_HEADERS)).filter(([name]) => name !== 'Content-Type'),
  );
  /** @param {string} step @param {number} status @param {import('@nativegtm/server/releases/previewPages').PageText} text */
  const pageLocation = (step, status, text) =>
    block(`location = ${PREVIEW_PAGE_LOCATION}${step}`, [
      'internal;',
      'default_type text/html;',
      headerLines({ ...base, ...pageHeaders }),
      `return ${status} ${nginxText(previewPage(text, stylesheets), PREVIEW_PAGE_VARIABLES)};`,
    ]);
  const markPattern = PREVIEW_MARK.source.replace(/^\^|\$$/g, '');
  return [
    '# Previews (docs/releasing.md): a cookie in that browser only, for a release that is in the store. A link from',
    '# another site is asked first; a release whose gate failed needs its mark. Every answer but the start is given',
    '# by an internal location: one from inside `if` would carry the cookies.',
    block(
      `location ~ ${quote(`^${PREVIEW_PATH_PREFIX}(?<nativegtm_preview_remote>${names})/(?<nativegtm_preview_id>(?<nativegtm_preview_short>[0-9a-f]{8})[0-9a-f]{8})(?:/(?<nativegtm_preview_mark>${markPattern}))?$`)}`,
      [
        headerLines(personal),
        // The start's own path, for the form to post back (the internal locations have theirs).
        'set $nativegtm_preview_action $uri;',
        block(`if (!-f ${quote(`${store}/${release}/${RELEASE_MANIFEST}`)})`, [
          `rewrite ^ ${PREVIEW_PAGE_LOCATION}missing last;`,
        ]),
        `set ${PREVIEW_GATE_VARIABLE} "";`,
        block(`if (-f ${quote(`${store}/$nativegtm_preview_remote/gates/$nativegtm_preview_id.failed`)})`, [
          `set ${PREVIEW_GATE_VARIABLE} failed;`,
        ]),
        block(
          `if (-f ${quote(`${store}/$nativegtm_preview_remote/previews/$nativegtm_preview_id.$nativegtm_preview_mark`)})`,
          [`set ${PREVIEW_GATE_VARIABLE} "\${nativegtm_preview_gate}+mark";`],
        ),
        block(`if (${PREVIEW_STEP_VARIABLE} != start)`, [
          `rewrite ^ ${PREVIEW_PAGE_LOCATION}${PREVIEW_STEP_VARIABLE} last;`,
        ]),
        setCookies(
          '$nativegtm_preview_remote.$nativegtm_preview_id',
          PREVIEW_MAX_AGE_SECONDS,
          '$nativegtm_preview_remote.$nativegtm_preview_id$nativegtm_preview_failed',
        ),
        'return 303 $nativegtm_preview_route;',
      ],
    ),
    block(`location = ${PREVIEW_PAGE_LOCATION}missing`, [
      'internal;',
      'default_type text/plain;',
      headerLines(personal),
      'return 404 "No such release to preview.\\n";',
    ]),
    pageLocation('ask', 200, texts(false).ask),
    pageLocation('ask_failed', 200, texts(true).ask),
    pageLocation('foreign', 403, texts(false).foreign),
    pageLocation('failed', 403, texts(true).failedGate),
    block(`location = ${PREVIEW_END_PATH}`, [headerLines(personal), setCookies('', 0), 'return 303 /;']),
  ].join('\n');
}

/**
 * The page each remote's preview opens on, and what a start does: refuse a release whose gate failed without its
 * mark, refuse a post from elsewhere, ask a link from elsewhere (@nativegtm/contract/fetchSites), else start; and
 * what the notice then says of the gate.
 * @param {PreviewPlan[]} plans
 */
function previewRouteMap(plans) {
  return [
    block('map $nativegtm_preview_remote $nativegtm_preview_route', [
      'default /;',
      ...plans.map((plan) => `${plan.remote} ${quote(plan.route)};`),
    ]),
    block(`map "$request_method:${FROM_THE_SITE_VARIABLE}:${PREVIEW_GATE_VARIABLE}" ${PREVIEW_STEP_VARIABLE}`, [
      '"~:failed$" failed;',
      '"~^POST::" foreign;',
      '"~^[^:]*::failed\\+mark$" ask_failed;',
      '"~^[^:]*::" ask;',
      'default start;',
    ]),
    block(`map ${PREVIEW_GATE_VARIABLE} $nativegtm_preview_failed`, [
      `"failed+mark" "${PREVIEW_FAILED_SUFFIX}";`,
      'default "";',
    ]),
  ].join('\n');
}

module.exports = {
  PREVIEWING_VARIABLE,
  PERSONAL_VARIABLE,
  releasePathVariable,
  cohortVariable,
  canariesListed,
  previewCheck,
  previewLocations,
  previewRouteMap,
  releaseMaps,
  remoteReleaseLocations,
};

// The release store in nginx (docs/releasing.md), with no reload when a release is promoted or rolled back: each
// remote's server answers from the live release first (the `live` link, which nginx follows per request), then the
// content-hashed files of every release kept, then the remote's dist/; any release is served whole under
// /releases/<id>/, which is also what a running canary's visitors load. The shell's server starts and ends previews (a
// cookie), puts each request on its side of each running canary, and, for a browser that previews or a canary's
// visitor, points its includes and its /remotes.json at that release. Same rules as the built-in server (releases/).
//
// Canaries are read when nginx loads its configuration, not per request: each remote's map from the bucket cookie to
// its side, and the list the documents carry, include the files the canary command writes into the canary's folder
// (releases/canaryInStore.js), and the command reloads nginx after each change (reload.js). A document outside any
// canary therefore costs no file test and no subrequest for canaries, whether or not one runs.
const { HASHED_ASSET } = require('@nativegtm/contract/assetNames');
const {
  PREVIEW_COOKIE,
  PREVIEW_END_PATH,
  PREVIEW_MAX_AGE_SECONDS,
  PREVIEW_PATH_PREFIX,
  RELEASE_ID,
  RELEASE_PATH_PREFIX,
} = require('@nativegtm/contract/releases');
const { block } = require('./indent');
const { headerLines, quote } = require('./syntax');
const { previewCookies } = require('@nativegtm/server/releases/previews');
const { BUCKET_COOKIE } = require('@nativegtm/contract/canaryBuckets');
const { CANARY_FILES, LISTED_KEY } = require('@nativegtm/server/releases/canaryInStore');
const { RELEASE_MANIFEST } = require('@nativegtm/server/releases/releaseInStore');
const { OVERRIDE_REMOTE_VARIABLE, manifestVariable } = require('./overrideLocations');

/** @typedef {Record<string, string>} Headers */
/** @typedef {{ remote: string, route: string, base: URL }} PreviewPlan */

/** Cache-Control of a remote's file, by its name: content-hashed files are immutable, others revalidated. */
const FILE_CACHE_VARIABLE = '$nativegtm_file_cache';
/** Non-empty when the visitor's browser previews a release (a well-formed preview cookie). */
const PREVIEWING_VARIABLE = '$nativegtm_previewing';
/** Non-empty when what the request is answered depends on the visitor: a preview, or a side of a canary. */
const PERSONAL_VARIABLE = '$nativegtm_personal';
/** The internal location answering /remotes.json to a browser that previews or is on a canary's side. */
const PERSONAL_REMOTES_LOCATION = '/_nativegtm_personal_remotes.json';

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
  /** @param {string} remote @param {string} file one of the canary's map files (canaryInStore.js) */
  const canaryMap = (remote, file) =>
    // A pattern: with no canary running there is no such file, which nginx takes as an empty include.
    `include ${quote(`${storeDir}/${remote}/canary/${file.replace(/\.map$/, '*.map')}`)};`;
  return [
    block(`map $uri ${FILE_CACHE_VARIABLE}`, [
      `${quote(`~${HASHED_ASSET.source}`)} "public, max-age=31536000, immutable";`,
      'default "no-cache";',
    ]),
    block(`map $cookie_${PREVIEW_COOKIE} ${PREVIEWING_VARIABLE}`, [
      `${quote(`~^(${remotes})\\.${releaseIdPattern}$`)} 1;`,
      'default "";',
    ]),
    ...plans.map((plan, index) =>
      block(`map $cookie_${PREVIEW_COOKIE} $nativegtm_preview_path_${plan.remote}`, [
        `${quote(`~^${plan.remote}\\.(?<ngtmpreview${index}>${releaseIdPattern})$`)} "${RELEASE_PATH_PREFIX}$ngtmpreview${index}/";`,
        'default "";',
      ]),
    ),
    "# Canaries: each remote's side for the visitor's bucket, as the browser sends it (nothing else ever names a",
    "# side), and what documents list of it; read from the running canary's files when nginx loads this",
    '# configuration (the canary command reloads it). A preview comes first, as on the built-in server.',
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
    ...plans.map((plan) =>
      block(`map "${PREVIEWING_VARIABLE}:${sideVariable(plan.remote)}" $nativegtm_release_path_${plan.remote}`, [
        `"~^1:" $nativegtm_preview_path_${plan.remote};`,
        `":canary" ${canaryPathVariable(plan.remote)};`,
        'default "";',
      ]),
    ),
  ].join('\n');
}

/**
 * Whom a personal document's field-data token is for (@nativegtm/contract/fieldData COHORT), as the built-in server
 * says it (shellServer.js personalOf, releases/canaries.js cohortOf): an override, else a preview, else the side of
 * the page's own remote, else of the first remote the visitor is on a side of. Sets $nativegtm_cohort; later lines
 * win.
 * @param {string} screen the page's remote, or the 404 screen
 * @param {PreviewPlan[]} plans
 */
function cohortLines(screen, plans) {
  const own = plans.filter((plan) => plan.remote === screen);
  const others = plans.filter((plan) => plan.remote !== screen).reverse();
  return [
    'set $nativegtm_cohort preview;',
    ...[...others, ...own].map((plan) =>
      block(`if (${sideVariable(plan.remote)})`, [
        `set $nativegtm_cohort "${sideVariable(plan.remote)}:${plan.remote}";`,
      ]),
    ),
    block(`if (${PREVIEWING_VARIABLE})`, ['set $nativegtm_cohort preview;']),
    block(`if (${OVERRIDE_REMOTE_VARIABLE})`, ['set $nativegtm_cohort override;']),
  ].join('\n');
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

/**
 * The shell's preview locations: start (`/_preview/<remote>/<id>`, only a release in the store), end, and the
 * /remotes.json a previewing browser or a canary's visitor gets.
 * @param {{ store: string, plans: PreviewPlan[], secure: boolean, base: Headers }} options
 */
function previewLocations({ store, plans, secure, base }) {
  // The same two cookies as the built-in server (releases/previews.js).
  /** @param {string} value @param {number} maxAge */
  const setCookies = (value, maxAge) =>
    previewCookies(value, maxAge, secure)
      .map((cookie) => `add_header Set-Cookie ${quote(cookie)} always;`)
      .join('\n');
  const personal = { ...base, 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' };
  const names = plans.map((plan) => plan.remote).join('|');
  // Each remote's manifest as this browser gets it: a release's (overrideLocations.js), or a dev server's.
  const entries = Object.fromEntries(plans.map((plan) => [plan.remote, manifestVariable(plan.remote)]));
  const json = JSON.stringify(entries);
  if (json.includes("'")) throw new Error('remotes.json entries cannot contain a quote');
  return [
    '# Previews (docs/releasing.md): a cookie in that browser only, for a release that is in the store.',
    block(
      `location ~ ${quote(`^${PREVIEW_PATH_PREFIX}(?<nativegtm_preview_remote>${names})/(?<nativegtm_preview_id>${releaseIdPattern})$`)}`,
      [
        headerLines(personal),
        block(`if (!-f ${quote(`${store}/$nativegtm_preview_remote/$nativegtm_preview_id/${RELEASE_MANIFEST}`)})`, [
          'return 404 "No such release to preview.\\n";',
        ]),
        setCookies('$nativegtm_preview_remote.$nativegtm_preview_id', PREVIEW_MAX_AGE_SECONDS),
        'return 303 $nativegtm_preview_route;',
      ],
    ),
    block(`location = ${PREVIEW_END_PATH}`, [headerLines(personal), setCookies('', 0), 'return 303 /;']),
    block(`location = ${PERSONAL_REMOTES_LOCATION}`, [
      'internal;',
      'default_type application/json;',
      headerLines(personal),
      `return 200 '${json}\\n';`,
    ]),
  ].join('\n');
}

/**
 * The page each remote's preview opens on.
 * @param {PreviewPlan[]} plans
 */
function previewRouteMap(plans) {
  return block('map $nativegtm_preview_remote $nativegtm_preview_route', [
    'default /;',
    ...plans.map((plan) => `${plan.remote} ${quote(plan.route)};`),
  ]);
}

module.exports = {
  PREVIEWING_VARIABLE,
  PERSONAL_VARIABLE,
  PERSONAL_REMOTES_LOCATION,
  releasePathVariable,
  cohortLines,
  canariesListed,
  previewLocations,
  previewRouteMap,
  releaseMaps,
  remoteReleaseLocations,
};

// The release store in nginx (docs/releasing.md), with no reload when a release is promoted or rolled back: each
// remote's server answers from the live release first (the `live` link, which nginx follows per request), then the
// content-hashed files of every release kept, then the remote's dist/; any release is served whole under
// /releases/<id>/. The shell's server starts and ends previews (a cookie) and, for a browser that previews, points
// its includes and its /remotes.json at that release. Same rules as the built-in server (releases/).
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
const { RELEASE_MANIFEST } = require('@nativegtm/server/releases/releaseInStore');

/** @typedef {Record<string, string>} Headers */
/** @typedef {{ remote: string, route: string, base: URL }} PreviewPlan */

/** Cache-Control of a remote's file, by its name: content-hashed files are immutable, others revalidated. */
const FILE_CACHE_VARIABLE = '$nativegtm_file_cache';
/** Non-empty when the visitor's browser previews a release (a well-formed preview cookie). */
const PREVIEWING_VARIABLE = '$nativegtm_previewing';
/** The internal location answering /remotes.json to a browser that previews. */
const PREVIEW_REMOTES_LOCATION = '/_nativegtm_preview_remotes.json';

const releaseIdPattern = RELEASE_ID.source.replace(/^\^|\$$/g, '');

/**
 * The prefix a remote's files are fetched under for this request: `releases/<id>/` when it is previewed, else empty
 * (braced, to be followed by a path).
 * @param {string} remote
 */
const previewPathVariable = (remote) => `\${nativegtm_preview_path_${remote}}`;

/**
 * The maps the release locations read (http level).
 * @param {PreviewPlan[]} plans
 */
function releaseMaps(plans) {
  const remotes = plans.map((plan) => plan.remote).join('|');
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
  ].join('\n');
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
      '# One release whole, whether live or not: what a preview loads.',
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
 * /remotes.json a previewing browser gets.
 * @param {{ store: string, plans: PreviewPlan[], remotes: Partial<Record<string, string>>, secure: boolean,
 *   base: Headers }} options
 *   remotes: remotes.json's entries, as the configuration was generated from
 */
function previewLocations({ store, plans, remotes, secure, base }) {
  // The same two cookies as the built-in server (releases/previews.js).
  /** @param {string} value @param {number} maxAge */
  const setCookies = (value, maxAge) =>
    previewCookies(value, maxAge, secure)
      .map((cookie) => `add_header Set-Cookie ${quote(cookie)} always;`)
      .join('\n');
  const personal = { ...base, 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' };
  const names = plans.map((plan) => plan.remote).join('|');
  const entries = Object.fromEntries(
    plans.map((plan) => [
      plan.remote,
      `${new URL('./', /** @type {string} */ (remotes[plan.remote])).href}${previewPathVariable(plan.remote)}${RELEASE_MANIFEST}`,
    ]),
  );
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
    block(`location = ${PREVIEW_REMOTES_LOCATION}`, [
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
  PREVIEW_REMOTES_LOCATION,
  previewPathVariable,
  previewLocations,
  previewRouteMap,
  releaseMaps,
  remoteReleaseLocations,
};

// Previews on the shell's server: `/_preview/<remote>/<id>` sets a cookie in that browser only, and from then on its
// documents are composed with that release's HTML and its /remotes.json points the shell's client code at that
// release's files on the remote's server (/releases/<id>/). A preview can name only a release that is in the store,
// never an address: the cookie holds a remote's name and a release id, nothing else is read from it. What a preview
// is served is personal: never kept by a shared cache, never indexed.
const {
  PREVIEW_COOKIE,
  PREVIEW_NOTICE_COOKIE,
  PREVIEW_END_PATH,
  PREVIEW_MAX_AGE_SECONDS,
  PREVIEW_PATH_PREFIX,
  parsePreview,
  releaseFolder,
} = require('@nativegtm/contract/releases');
const { cookiePair, redirect, refuse } = require('./personalCookies');
const { storeLayout } = require('./storeLayout');
const { RELEASE_MANIFEST, rememberedReleases } = require('./releaseInStore');
const { PERSONAL_CACHE_CONTROL } = require('../documentCaching');

/** @typedef {import('../documentComposer').ChosenRelease} ChosenRelease */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/** A preview's responses are that browser's alone, and never indexed should one reach a crawler. */
const PREVIEW_HEADERS = { 'Cache-Control': PERSONAL_CACHE_CONTROL, 'X-Robots-Tag': 'noindex' };

/**
 * @param {{ storeDir: string, routes: { route: string, remote: string }[], secure: boolean }} options
 *   routes: which page each remote renders (a preview starts on it); secure: the site is served over https (the
 *   cookie is then Secure)
 */
function createPreviews({ storeDir, routes, secure }) {
  const remoteNames = routes.map((route) => route.remote);
  const releaseInStore = rememberedReleases();
  /**
   * @param {string} remote
   * @param {string} id
   */
  const inStore = (remote, id) => releaseInStore(storeLayout(storeDir, remote), id);

  /**
   * The release this request's browser previews, if its cookie names one that is in the store.
   * @param {Record<string, string | undefined>} cookies the request's, parsed
   * @returns {ChosenRelease | undefined}
   */
  function of(cookies) {
    const preview = parsePreview(cookies[PREVIEW_COOKIE], remoteNames);
    return preview && inStore(preview.remote, preview.id) ? preview : undefined;
  }

  /**
   * `/_preview/<remote>/<id>` starts a preview and opens the remote's page; `/_preview/end` ends it.
   * @param {ServerResponse} res
   * @param {string} pathname
   */
  function handle(res, pathname) {
    for (const [name, value] of Object.entries(PREVIEW_HEADERS)) res.setHeader(name, value);
    if (pathname === PREVIEW_END_PATH) {
      res.setHeader('Set-Cookie', previewCookies('', 0, secure));
      return redirect(res, '/');
    }
    const [remote = '', id = ''] = pathname.slice(PREVIEW_PATH_PREFIX.length).split('/');
    const route = routes.find((candidate) => candidate.remote === remote)?.route;
    if (!route || !inStore(remote, id)) return refuse(res, 404, 'No such release to preview.');
    res.setHeader('Set-Cookie', previewCookies(`${remote}.${id}`, PREVIEW_MAX_AGE_SECONDS, secure));
    return redirect(res, route);
  }

  return { of, handle };
}

/**
 * The preview cookie (HttpOnly: what the server reads) and its notice for the page (releases.js), set or cleared.
 * @param {string} value `<remote>.<id>`, empty to clear
 * @param {number} maxAge seconds, 0 to clear
 * @param {boolean} secure
 */
const previewCookies = (value, maxAge, secure) =>
  cookiePair({ server: PREVIEW_COOKIE, notice: PREVIEW_NOTICE_COOKIE }, value, maxAge, secure);

/**
 * remotes.json as a preview's or a canary's visitor sees it: its valid entries (remotesFile.js), with each chosen
 * release's remote's manifest URL moved to that release's folder on the same server.
 * @param {Partial<Record<string, string>>} entries
 * @param {ChosenRelease[]} chosen
 */
function chosenRemotesJson(entries, chosen) {
  const moved = { ...entries };
  for (const { remote, id } of chosen) {
    const manifest = entries[remote];
    if (manifest) moved[remote] = new URL(`${releaseFolder(id)}${RELEASE_MANIFEST}`, new URL('./', manifest)).href;
  }
  return `${JSON.stringify(moved, null, 2)}\n`;
}

module.exports = { createPreviews, previewCookies, chosenRemotesJson, PREVIEW_HEADERS };

// Previews on the shell's server: `/_preview/<remote>/<id>` sets a cookie in that browser only, and from then on its
// documents are composed with that release's HTML and its /remotes.json points the shell's client code at that
// release's files on the remote's server (/releases/<id>/). A preview can name only a release that is in the store,
// never an address: the cookie holds a remote's name and a release id, nothing else is read from it. What a preview
// is served is personal: never kept by a shared cache, never indexed.
//
// A preview is opened on purpose: a link from another site (Sec-Fetch-Site cross-site or same-site) sets no cookie but
// asks, with a form that posts back to the same path, and only a post from the site itself starts it
// (@nativegtm/contract/fetchSites, as an override's start). A release whose gate failed (gates/<id>.failed) opens
// only through a link carrying a mark `npm run preview -- … --allow-failed` wrote into the store, and its notice says
// FAILED.
const fs = require('node:fs');
const { fromTheSite } = require('@nativegtm/contract/fetchSites');
const {
  PREVIEW_COOKIE,
  PREVIEW_NOTICE_COOKIE,
  PREVIEW_END_PATH,
  PREVIEW_MAX_AGE_SECONDS,
  PREVIEW_PATH_PREFIX,
  PREVIEW_FAILED_SUFFIX,
  PREVIEW_MARK,
  parsePreview,
} = require('@nativegtm/contract/releases');
const { cookiePair, redirect, refuse } = require('./personalCookies');
const { storeLayout } = require('@nativegtm/store/layout');
const { rememberedReleases } = require('@nativegtm/store/releaseInStore');
const { PERSONAL_CACHE_CONTROL } = require('../documentCaching');
const { previewPage, previewPageHeaders, previewPageTexts, shellStylesheets } = require('./previewPages');

/** @typedef {import('../documentComposer').ChosenRelease} ChosenRelease */
/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/** A preview's responses are that browser's alone, and never indexed should one reach a crawler. */
const PREVIEW_HEADERS = { 'Cache-Control': PERSONAL_CACHE_CONTROL, 'X-Robots-Tag': 'noindex' };

/** Release ids as the commands print them short (the notice's and the pages' way). */
const SHORT_ID = 8;

/**
 * @param {{ storeDir: string, routes: { route: string, remote: string }[], secure: boolean,
 *   templateFile: string }} options
 *   routes: which page each remote renders (a preview starts on it); secure: the site is served over https (the
 *   cookie is then Secure); templateFile: the shell's index.html, whose stylesheets the preview's pages link (read
 *   for each page: a deploy of the shell changes them)
 */
function createPreviews({ storeDir, routes, secure, templateFile }) {
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
   * `/_preview/<remote>/<id>[/<mark>]` starts a preview and opens the remote's page, or asks first; `/_preview/end`
   * ends it.
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {string} pathname
   */
  function handle(req, res, pathname) {
    for (const [name, value] of Object.entries(PREVIEW_HEADERS)) res.setHeader(name, value);
    if (pathname === PREVIEW_END_PATH) {
      res.setHeader('Set-Cookie', previewCookies('', 0, secure));
      return redirect(res, '/');
    }
    const [remote = '', id = '', mark, ...rest] = pathname.slice(PREVIEW_PATH_PREFIX.length).split('/');
    const route = routes.find((candidate) => candidate.remote === remote)?.route;
    const wellFormed = rest.length === 0 && (mark === undefined || PREVIEW_MARK.test(mark));
    if (!route || !wellFormed || !inStore(remote, id)) return refuse(res, 404, 'No such release to preview.');
    const layout = storeLayout(storeDir, remote);
    const failed = fs.existsSync(layout.gateFailed(id));
    const texts = previewPageTexts({ remote, id, shortId: id.slice(0, SHORT_ID), action: pathname, route, failed });
    if (failed && !(mark && fs.existsSync(layout.previewMark(id, mark)))) return page(res, 403, texts.failedGate);
    const ownRequest = fromTheSite(req.headers['sec-fetch-site']);
    if (req.method === 'POST' && !ownRequest) return page(res, 403, texts.foreign);
    if (!ownRequest) return page(res, 200, texts.ask);
    const value = `${remote}.${id}`;
    res.setHeader(
      'Set-Cookie',
      previewCookies(value, PREVIEW_MAX_AGE_SECONDS, secure, failed ? `${value}${PREVIEW_FAILED_SUFFIX}` : value),
    );
    return redirect(res, route);
  }

  /**
   * @param {ServerResponse} res
   * @param {number} status
   * @param {import('./previewPages').PageText} text
   */
  function page(res, status, text) {
    res.statusCode = status;
    for (const [name, value] of Object.entries(previewPageHeaders(PREVIEW_HEADERS))) res.setHeader(name, value);
    let template = '';
    try {
      template = fs.readFileSync(templateFile, 'utf8');
    } catch {
      // Unstyled, and still a page that works: a shell being deployed is no reason to refuse.
    }
    res.end(previewPage(text, shellStylesheets(template)));
  }

  return { of, handle };
}

/**
 * The preview cookie (HttpOnly: what the server reads) and its notice for the page (releases.js), set or cleared.
 * @param {string} value `<remote>.<id>`, empty to clear
 * @param {number} maxAge seconds, 0 to clear
 * @param {boolean} secure
 * @param {string} [notice] the notice's value, when it says more (the release failed its gate)
 */
const previewCookies = (value, maxAge, secure, notice) =>
  cookiePair({ server: PREVIEW_COOKIE, notice: PREVIEW_NOTICE_COOKIE }, value, maxAge, secure, notice);

module.exports = { createPreviews, previewCookies, PREVIEW_HEADERS };

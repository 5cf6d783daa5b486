// The shell's document server: every page route answers a complete document, composed per request from the shell's
// index.html (an SSI template, see ssi.js) and the HTML each page's remote rendered at build time (fragments.js).
// Unknown paths answer 404 with the shell's own 404 screen. A remote that is down, answers an error or is slow only
// loses its HTML: the document still answers within the fragment timeout and boots that page in the browser.
const path = require('node:path');
const { parseTemplate, compose } = require('./ssi');
const { fragmentPaths, REMOTE_BASE_VARIABLE } = require('./fragments');
const { variantKey } = require('./pageVariant');
const { createFragmentCache } = require('./fragmentCache');
const { fileReader } = require('./fileReader');
const { readRemotes } = require('./remotes');
const { siteHead, robotsTxt, sitemapXml } = require('./siteMeta');

const NOT_FOUND = 'not-found';

/** The route a path shows, matched as the shell's router matches it: any letter case, trailing slashes ignored. */
function normalizePath(pathname) {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '').toLowerCase() || '/' : pathname;
}

/**
 * @param {{ root: string, remotesFile: string, routes: { route: string, remote: string }[], origin: string,
 *   fragmentTimeoutMs?: number, fragmentMaxAgeMs?: number }} options
 *   root: the shell's dist/; routes: which remote renders which page; origin: the site's public origin, for
 *   absolute URLs (never taken from the request).
 */
function createDocumentComposer({
  root,
  remotesFile,
  routes,
  origin,
  fragmentTimeoutMs = 400,
  fragmentMaxAgeMs = 500,
}) {
  const template = fileReader(parseTemplate);
  const text = fileReader((value) => value);
  const remotes = fileReader(readRemotes);
  const fragments = createFragmentCache({ timeoutMs: fragmentTimeoutMs, maxAgeMs: fragmentMaxAgeMs });
  const byPath = new Map(routes.map((route) => [route.route, route]));

  /** The remote's base URL (the folder of its mf-manifest.json), if remotes.json lists a valid one. */
  function remoteBase(remote) {
    const manifest = remotes(remotesFile)?.[remote];
    return manifest ? new URL('./', manifest) : undefined;
  }

  /** A file of the remote's ssr/ folder, only ever from the remote's own origin. */
  function fetchFragment(base, file, deadline) {
    const url = new URL(file, base);
    if (url.origin !== base.origin) return Promise.resolve(null);
    return fragments.get(url.href, deadline - Date.now());
  }

  async function pageHead(remote, deadline) {
    if (remote === NOT_FOUND) return text(path.join(root, fragmentPaths.head)) ?? '';
    const base = remoteBase(remote);
    if (!base) return '';
    const head = await fetchFragment(base, fragmentPaths.head, deadline);
    // The page's stylesheets are files of the remote: its base URL is only known here.
    return head ? compose(parseTemplate(head), { [REMOTE_BASE_VARIABLE]: base.href }) : '';
  }

  async function pageBody(remote, search, deadline) {
    if (remote === NOT_FOUND) return text(path.join(root, fragmentPaths.body('index'))) ?? '';
    const base = remoteBase(remote);
    if (!base) return '';
    const manifestText = await fetchFragment(base, fragmentPaths.manifest, deadline);
    let manifest;
    try {
      manifest = JSON.parse(manifestText ?? '');
    } catch {
      return '';
    }
    if (manifest?.name !== remote) return '';
    const body = await fetchFragment(base, fragmentPaths.body(variantKey(manifest.query, search)), deadline);
    // Only HTML the remote's build wrote for this remote is pasted in: never an error page answered with 200.
    return body?.startsWith(`<div data-remote="${remote}" `) ? body : '';
  }

  /**
   * @param {string} url the request's path and query
   * @returns {Promise<{ status: number, html: string }>}
   */
  async function render(url) {
    const { pathname, search } = new URL(url, 'http://document.invalid');
    const route = byPath.get(normalizePath(pathname));
    const page = route ? route.remote : NOT_FOUND;
    const parsed = template(path.join(root, 'index.html'));
    if (!parsed) throw new Error(`The shell's index.html is missing in ${root}`);
    const deadline = Date.now() + fragmentTimeoutMs;
    const html = await compose(parsed, { page, args: search.slice(1) }, async (virtual) => {
      const [, kind, name] = virtual.match(/^\/_compose\/([a-z-]+)\/([A-Za-z-]*)/) ?? [];
      if (name !== page) return '';
      if (kind === 'page-head') return pageHead(page, deadline);
      if (kind === 'site-head') return siteHead(origin, route?.route);
      if (kind === 'page-body') return pageBody(page, search, deadline);
      return '';
    });
    return { status: route ? 200 : 404, html };
  }

  return {
    render,
    close: fragments.close,
    robotsTxt: () => robotsTxt(origin),
    sitemapXml: () =>
      sitemapXml(
        origin,
        routes.map((route) => route.route),
      ),
  };
}

module.exports = { createDocumentComposer, normalizePath, NOT_FOUND };

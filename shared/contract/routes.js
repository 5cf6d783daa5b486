// How a URL path is matched to a page route: in any letter case, trailing slashes ignored, as the shell's router
// matches it. The shell (which remote to load first), the built-in server (which page to compose) and nginx's
// generated locations all use this rule, so a path shows the same page, or the same 404, wherever it is answered.
const { pages } = require('./pages');

/** @typedef {import('./pages').Page} Page */

/**
 * The route a path stands for: lower case, without trailing slashes ("/Employers/" is "/employers", "//" is "/").
 * @param {string} pathname
 * @returns {string}
 */
function normalizeRoutePath(pathname) {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '').toLowerCase() || '/' : pathname;
}

/**
 * The registry's page for a path, if any.
 * @param {string} pathname
 * @returns {Page | undefined}
 */
function pageForPath(pathname) {
  const route = normalizeRoutePath(pathname);
  return pages.find((page) => page.route === route);
}

/**
 * The same rule as a regular expression for one route, to be matched case-insensitively (nginx's `location ~*`): the
 * route, then any number of slashes.
 * @param {string} route a registry route, e.g. "/featured-jobs"
 * @returns {string}
 */
function routePattern(route) {
  const stem = route === '/' ? '' : route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `^${stem}/${route === '/' ? '+' : '*'}$`;
}

module.exports = { normalizeRoutePath, pageForPath, routePattern };

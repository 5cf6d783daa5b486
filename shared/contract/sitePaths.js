// The site's public routes by name, from the registry of pages: the shell maps them to remotes, pages use them for
// their links, the servers for the sitemap and canonical URLs.
const { pages } = require('./pages');

/** @typedef {import('./pages').Page} Page */
/** @typedef {{ readonly [P in Page as P['pathKey']]: P['route'] }} SitePaths */
/** @typedef {SitePaths[keyof SitePaths]} SitePath */

const paths = /** @type {SitePaths} */ (Object.fromEntries(pages.map((page) => [page.pathKey, page.route])));

module.exports = { paths };

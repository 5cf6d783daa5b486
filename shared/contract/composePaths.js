// The internal requests a document is composed of: the shell's index.html asks for them as SSI includes, and both
// servers answer them (the built-in server in process, nginx with internal locations). Never public URLs.
//
//   /_compose/page-head/<screen>   the page's <title>, description and stylesheets, from its remote's build
//   /_compose/site-head/<screen>   the site's own tags: canonical URL, link previews (or noindex for the 404)
//   /_compose/page-body/<screen>   the page's server-rendered HTML, for the request's query
//
// <screen> is a remote's name, or NOT_FOUND_SCREEN for the 404 document.

const COMPOSE_PREFIX = '/_compose/';

/** @typedef {'page-head' | 'site-head' | 'page-body'} ComposePart */

/** @type {{ readonly pageHead: 'page-head', readonly siteHead: 'site-head', readonly pageBody: 'page-body' }} */
const composeParts = { pageHead: 'page-head', siteHead: 'site-head', pageBody: 'page-body' };

/** The screen of the 404 document: the shell's own, rendered by its build. */
const NOT_FOUND_SCREEN = 'not-found';

/** nginx's answer for an include that failed: an empty body, so SSI prints the template's fallback. */
const EMPTY_INCLUDE = `${COMPOSE_PREFIX}empty`;

/** nginx's internal location of the 404 document (the target of its error_page 404). */
const NOT_FOUND_DOCUMENT = `${COMPOSE_PREFIX}${NOT_FOUND_SCREEN}`;

/**
 * @param {ComposePart} part
 * @param {string} screen a remote's name, NOT_FOUND_SCREEN, or an SSI variable such as "$page"
 */
function composePath(part, screen) {
  return `${COMPOSE_PREFIX}${part}/${screen}`;
}

/**
 * The part and screen an include asks for, or undefined for any other path.
 * @param {string} virtual the include's path, its query left out or not
 * @returns {{ part: ComposePart, screen: string } | undefined}
 */
function parseComposePath(virtual) {
  const match = /^\/_compose\/(page-head|site-head|page-body)\/([A-Za-z-]*)(?:\?|$)/.exec(virtual);
  return match ? { part: /** @type {ComposePart} */ (match[1]), screen: /** @type {string} */ (match[2]) } : undefined;
}

module.exports = {
  COMPOSE_PREFIX,
  composeParts,
  NOT_FOUND_SCREEN,
  NOT_FOUND_DOCUMENT,
  EMPTY_INCLUDE,
  composePath,
  parseComposePath,
};

// The files a package's build renders for the document server (shared/build/ssr.js writes them; the built-in
// server and the generated nginx configuration read them). All live in dist/ssr/, beside the remote's
// mf-manifest.json, so they move with the remote and are served from its own origin:
//
//   ssr/manifest.json         { name, buildId, renderedAt, query, integrity }: which build rendered them, its variants,
//                             and the sha384 of each other file here (@nativegtm/contract/integrity)
//   ssr/head.html             its build (headMarker), <title>, description, og:title, og:description and the page's stylesheets
//   ssr/body/<variant>.html   the page's HTML, one file per variant (shared/server/pageVariant.js)
//
// Stylesheet URLs in head.html start with REMOTE_BASE, an SSI echo of the variable REMOTE_BASE_VARIABLE: the build
// cannot know where the remote will be deployed, the server does (remotes.json) and sets it to the remote's base URL.
// (An SSI variable rather than a text to replace: nginx's sub_filter would also run over the include's fallback and
// garble it, see nginx.js.)

const { assertValidQuery } = require('./pageVariant');

/**
 * @typedef {object} PageManifest what ssr/manifest.json says
 * @property {string} name the remote's name
 * @property {string} buildId the build that rendered the files
 * @property {import('./pageVariant').PageQuery} [query] the page's query parameters and their values
 * @property {unknown} [integrity] the integrity of each other server-rendered file (read with
 *   @nativegtm/contract/integrity's fragmentIntegrityOf)
 */

const FRAGMENT_DIR = 'ssr';
const REMOTE_BASE_VARIABLE = 'nativegtm_remote_base';
const REMOTE_BASE = `<!--# echo var="${REMOTE_BASE_VARIABLE}" -->`;

/**
 * The SSI directives in a fragment that its build does not write: a head may hold only REMOTE_BASE, the page's HTML
 * none. The servers run SSI over both (nginx for every include, the built-in server over the head), so any other
 * directive in a team's files would run on the site's origin: echo another cookie, include the field-data token of
 * another cohort. An opening `<!--#` without its `-->` counts too.
 * @param {string} text
 * @param {'head' | 'body'} part
 * @returns {string[]} each one as it is written
 */
function foreignDirectives(text, part) {
  const found = text.match(/<!--#[\s\S]*?(?:-->|$)/g) ?? [];
  return found.filter((directive) => !(part === 'head' && directive === REMOTE_BASE));
}

const fragmentPaths = {
  manifest: `${FRAGMENT_DIR}/manifest.json`,
  head: `${FRAGMENT_DIR}/head.html`,
  /** @param {string} variant */
  body: (variant) => `${FRAGMENT_DIR}/body/${variant}.html`,
};

/** @type {Record<string, string>} */
const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text or an attribute value, safe to put in HTML.
 * @param {unknown} value
 */
function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (char) => /** @type {string} */ (HTML_ESCAPES[char]));
}

/**
 * A remote's ssr/manifest.json, checked: it must be this remote's, name a build, and list query parameters and values
 * that are slugs (they become regular expressions and file names). Throws, saying why, otherwise.
 * @param {string} text
 * @param {string} remote
 * @returns {PageManifest}
 */
function parsePageManifest(text, remote) {
  const manifest = JSON.parse(text);
  if (manifest?.name !== remote) throw new Error(`it is remote "${manifest?.name}"'s`);
  if (typeof manifest.buildId !== 'string') throw new Error('it names no build');
  assertValidQuery(manifest.query);
  return manifest;
}

const HEAD_MARKER_START = '<!-- nativegtm head:';

/**
 * How head.html starts: which remote and build wrote it (a comment, so nginx's SSI passes it through).
 * @param {string} remote
 * @param {string} buildId
 */
function headMarker(remote, buildId) {
  return `${HEAD_MARKER_START} remote="${escapeHtml(remote)}" build="${escapeHtml(buildId)}" -->`;
}

/**
 * How every ssr/body file starts: the wrapper the browser reads (which remote, build and variant).
 * @param {string} remote
 * @param {string} buildId
 */
function bodyWrapperStart(remote, buildId) {
  return `<div data-remote="${escapeHtml(remote)}" data-build="${escapeHtml(buildId)}" `;
}

module.exports = {
  bodyWrapperStart,
  parsePageManifest,
  HEAD_MARKER_START,
  headMarker,
  FRAGMENT_DIR,
  REMOTE_BASE,
  REMOTE_BASE_VARIABLE,
  foreignDirectives,
  fragmentPaths,
  escapeHtml,
};

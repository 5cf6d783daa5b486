// remotes.json: where each page remote's mf-manifest.json lives. Deployment configuration that operators edit by
// hand, read by the shell (which remotes to load) and by both servers (where to fetch a page's HTML from, which
// origins the CSP allows). One validation for all three, so a server never fetches from, and the CSP never allows,
// an origin the shell would not load: an unknown remote name or an address that is not http(s) counts for nobody.
const { pages } = require('./pages');
const { remoteNames } = require('./remotes');

/** @typedef {import('./pages').Page} Page */
/** @typedef {import('./pages').RemoteName} RemoteName */
/**
 * @typedef {object} RemotesConfig
 * @property {Partial<Record<RemoteName, string>>} entries each valid entry: remote name to manifest URL
 * @property {string[]} problems human-readable problems for operators
 */

/** Where the shell fetches it, on the site's own origin. */
const REMOTES_CONFIG_PATH = '/remotes.json';

/** The file as a whole cannot be read: nothing in it counts. */
class RemotesConfigError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'RemotesConfigError';
  }
}

/**
 * @param {unknown} value
 * @returns {value is string}
 */
function isManifestUrl(value) {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A parsed remotes.json, entry by entry: a bad entry disables that remote only and says why. Throws
 * RemotesConfigError for anything but a JSON object.
 * @param {unknown} json
 * @returns {RemotesConfig}
 */
function parseRemotesConfig(json) {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new RemotesConfigError(
      `${REMOTES_CONFIG_PATH} must be a JSON object mapping remote names to manifest URLs, e.g. ` +
        `{"candidates": "https://…/mf-manifest.json"}`,
    );
  }
  /** @type {RemotesConfig['entries']} */
  const entries = {};
  const problems = [];
  for (const [name, value] of Object.entries(json)) {
    if (!(/** @type {readonly string[]} */ (remoteNames).includes(name))) {
      problems.push(`${REMOTES_CONFIG_PATH}: unknown remote "${name}" ignored (known: ${remoteNames.join(', ')})`);
    } else if (!isManifestUrl(value)) {
      problems.push(`${REMOTES_CONFIG_PATH}: "${name}" disabled, its address must be an http(s) URL`);
    } else {
      entries[/** @type {RemoteName} */ (name)] = value;
    }
  }
  for (const name of remoteNames) {
    if (!(name in json)) problems.push(`${REMOTES_CONFIG_PATH}: no address for "${name}", its page is disabled`);
  }
  return { entries, problems };
}

/**
 * The valid entries of remotes.json's text, as a server reads it: none when the file is not a JSON object (every
 * page then renders in the browser, which reports the problem).
 * @param {string} text
 * @returns {RemotesConfig['entries']}
 */
function readRemotesConfig(text) {
  try {
    return parseRemotesConfig(JSON.parse(text)).entries;
  } catch {
    return {};
  }
}

/**
 * A remotes.json for every page on `host`: by default the one the shell ships with, every remote at its `npm start`
 * port; `portOf` gives a page another port (the test sites).
 * @param {{ host?: string, portOf?: (page: Page) => number }} [options]
 * @returns {Record<RemoteName, string>}
 */
function shippedRemotes({ host = 'localhost', portOf = (page) => page.port } = {}) {
  return /** @type {Record<RemoteName, string>} */ (
    Object.fromEntries(pages.map((page) => [page.remote, `http://${host}:${portOf(page)}/mf-manifest.json`]))
  );
}

module.exports = { REMOTES_CONFIG_PATH, RemotesConfigError, parseRemotesConfig, readRemotesConfig, shippedRemotes };

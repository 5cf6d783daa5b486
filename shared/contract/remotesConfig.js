// remotes.json: where each page remote's mf-manifest.json lives. Deployment configuration that operators edit by
// hand, read by the shell (which remotes to load) and by both servers (where to fetch a page's HTML from, which
// origins the CSP allows). One validation for all three, so a server never fetches from, and the CSP never allows,
// an origin the shell would not load: an unknown remote name or an address that is not http(s) counts for nobody.
const { pages } = require('./pages');
const { remoteNames } = require('./remotes');
const { INTEGRITY_VALUE } = require('./integrity');

/** @typedef {import('./pages').Page} Page */
/** @typedef {import('./pages').RemoteName} RemoteName */
/**
 * @typedef {object} RemotesConfig
 * @property {Partial<Record<RemoteName, string>>} entries each valid entry: remote name to manifest URL
 * @property {Partial<Record<RemoteName, string>>} integrity for a remote whose entry names one, the integrity of its
 *   list of its files' integrity (its integrity.json, see ./integrity.js): what the site's server vouches for, from the
 *   release store, in the remotes.json browsers get
 * @property {Partial<Record<RemoteName, string>>} devServers for a remote the site's server says this browser loads from
 *   a dev server (an override it checked: its cookie and OVERRIDE_ORIGINS), that server's origin: its files are
 *   checked by nothing. Never taken from anything a page's script can write.
 * @property {string[]} problems human-readable problems for operators
 */
/**
 * An entry as the file holds it: the manifest's URL, or the URL with the integrity of the remote's list, or with
 * `devServer: true` for a dev server's.
 * @typedef {string | { url: string, integrity?: string, devServer?: true }} RemoteEntry
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
  /** @type {RemotesConfig['integrity']} */
  const integrity = {};
  /** @type {RemotesConfig['devServers']} */
  const devServers = {};
  const problems = [];
  for (const [name, value] of Object.entries(json)) {
    const entry = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { url: value };
    if (!(/** @type {readonly string[]} */ (remoteNames).includes(name))) {
      problems.push(`${REMOTES_CONFIG_PATH}: unknown remote "${name}" ignored (known: ${remoteNames.join(', ')})`);
    } else if (!isManifestUrl(entry.url)) {
      problems.push(`${REMOTES_CONFIG_PATH}: "${name}" disabled, its address must be an http(s) URL`);
    } else {
      entries[/** @type {RemoteName} */ (name)] = entry.url;
      if (entry.devServer === true) devServers[/** @type {RemoteName} */ (name)] = new URL(entry.url).origin;
      if (typeof entry.integrity === 'string' && INTEGRITY_VALUE.test(entry.integrity)) {
        integrity[/** @type {RemoteName} */ (name)] = entry.integrity;
      } else if (entry.integrity !== undefined) {
        problems.push(`${REMOTES_CONFIG_PATH}: "${name}" names no sha384 integrity: its files will be refused`);
      }
    }
  }
  for (const name of remoteNames) {
    if (!(name in json)) problems.push(`${REMOTES_CONFIG_PATH}: no address for "${name}", its page is disabled`);
  }
  return { entries, integrity, devServers, problems };
}

/**
 * The remotes.json browsers get: each remote's manifest URL, with the integrity of its list where the server vouches
 * for one (an entry without one: the shell refuses that remote's files), and a dev server's entry marked as such.
 * @param {Partial<Record<RemoteName, string>>} entries
 * @param {Partial<Record<RemoteName, string | undefined>>} integrity
 * @param {string} [devServer] the remote this browser loads from a dev server, as the server checked it
 * @returns {Record<string, RemoteEntry>}
 */
function servedRemotes(entries, integrity, devServer) {
  return Object.fromEntries(
    Object.entries(entries).map(([name, url]) => {
      if (name === devServer) return [name, { url: /** @type {string} */ (url), devServer: true }];
      const vouched = integrity[/** @type {RemoteName} */ (name)];
      return [name, vouched ? { url, integrity: vouched } : /** @type {string} */ (url)];
    }),
  );
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

module.exports = {
  REMOTES_CONFIG_PATH,
  RemotesConfigError,
  parseRemotesConfig,
  readRemotesConfig,
  servedRemotes,
  shippedRemotes,
};

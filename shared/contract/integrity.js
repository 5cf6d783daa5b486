// Subresource Integrity, as the build, the store, the servers and the shell agree on it. Each deployable's build
// writes `integrity.json` at the root of its output: the sha384 of every file a browser may load from it (scripts,
// stylesheets, the federation manifest), and of its ssr/manifest.json, which names the sha384 of each server-rendered
// file in turn (fragmentIntegrityOf). The store checks both at publish and keeps the list with the release; browsers
// load those files only with a matching `integrity`, and the document server pastes a release's server-rendered HTML
// only with the bytes that chain names. A file a browser may load but the list lacks is never loaded: its loaders
// give it REFUSED_INTEGRITY, a well-formed value no file matches (an unparsable or empty one would let the browser
// load the file unchecked, which is how integrity fails open).
const { FRAGMENT_DIR, fragmentPaths } = require('./fragments');

/** Where the list is, relative to the build's root (and a release's folder). */
const INTEGRITY_FILE = 'integrity.json';

/** The one algorithm used: the strongest every engine checks, and what the SRI specification recommends. */
const INTEGRITY_ALGORITHM = 'sha384';

/** One file's integrity: `sha384-` and the base64 of its 48-byte digest (64 characters, no padding). */
const INTEGRITY_VALUE = /^sha384-[A-Za-z0-9+/]{64}$/;

/** Matches no file: a missing integrity becomes this, so the browser refuses the file instead of loading it. */
const REFUSED_INTEGRITY = `sha384-${'A'.repeat(64)}`;

/** A list with more entries than this is refused unread (a release holds at most 5,000 files). */
const MAX_INTEGRITY_ENTRIES = 5000;

/** A list that weighs more than this is not read (5,000 entries weigh under 1 MB). */
const MAX_INTEGRITY_BYTES = 2 * 1024 * 1024;

/** The server-rendered files (for the servers, never a browser) and what no browser loads (maps, licences). */
const NOT_LOADED = /^ssr\/|\.map$|\.LICENSE\.txt$|\.(gz|br)$/;
/** Copies the servers may send in place of a file: what publish checks inflate to it, never listed themselves. */
const COMPRESSED_COPY = /\.(gz|br)$/;

/**
 * Whether the list names this file of a build (a path relative to its root, with "/"): what a browser may load (its
 * scripts and stylesheets, and the federation manifest), and ssr/manifest.json, whose own list names the rest of
 * ssr/. Documents are not subresources, and images and fonts have no integrity in browsers.
 * @param {string} file
 */
function needsIntegrity(file) {
  if (file === fragmentPaths.manifest) return true;
  if (NOT_LOADED.test(file)) return false;
  return /\.(js|css)$/.test(file) || file === 'mf-manifest.json';
}

/**
 * Whether ssr/manifest.json's own list names this file: every server-rendered file but the manifest itself.
 * @param {string} file
 */
const isFragmentFile = (file) =>
  file.startsWith(`${FRAGMENT_DIR}/`) && file !== fragmentPaths.manifest && !COMPRESSED_COPY.test(file);

/**
 * The integrity list a build's files call for: each one needsIntegrity names, sorted, with its integrity. The digest
 * is the caller's (Node's crypto, where the build or the store runs): the contract computes nothing.
 * @param {string[]} files paths relative to the build's root, with "/"
 * @param {(file: string) => string} digestOf the base64 of the INTEGRITY_ALGORITHM digest of the file's bytes
 * @param {(file: string) => boolean} [listed] which files it names
 * @returns {Record<string, string>}
 */
function integrityListFor(files, digestOf, listed = needsIntegrity) {
  return Object.fromEntries(
    files
      .filter(listed)
      .sort()
      .map((file) => [file, `${INTEGRITY_ALGORITHM}-${digestOf(file)}`]),
  );
}

/**
 * The list ssr/manifest.json carries as its `integrity`: each server-rendered file of the build, with its integrity.
 * @param {string[]} files paths relative to the build's root, with "/"
 * @param {(file: string) => string} digestOf as integrityListFor's
 * @returns {Record<string, string>}
 */
const fragmentIntegrityFor = (files, digestOf) => integrityListFor(files, digestOf, isFragmentFile);

/** A list that is not well-formed: nothing in it counts. */
class IntegrityListError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'IntegrityListError';
  }
}

/**
 * A relative path inside a build: no "..", no leading "/" or "\", no empty segment.
 * @param {string} file
 */
const isBuildPath = (file) =>
  file.length > 0 &&
  file.length <= 1024 &&
  !file.startsWith('/') &&
  !file.includes('\\') &&
  file.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');

/**
 * An integrity.json's text as a map of file to integrity, or IntegrityListError saying in one line what is wrong.
 * @param {string} text
 * @returns {Record<string, string>}
 */
function parseIntegrityList(text) {
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new IntegrityListError(`${INTEGRITY_FILE} is not JSON`);
  }
  return checkedList(json, INTEGRITY_FILE, () => true);
}

/**
 * The list a page manifest (ssr/manifest.json, already parsed) names its server-rendered files' integrity with, or
 * IntegrityListError saying in one line what is wrong: a manifest without one vouches for no file.
 * @param {{ integrity?: unknown }} manifest
 * @returns {Record<string, string>}
 */
function fragmentIntegrityOf(manifest) {
  if (manifest.integrity === undefined) {
    throw new IntegrityListError(`${fragmentPaths.manifest} lists no integrity of the server-rendered files`);
  }
  return checkedList(manifest.integrity, `${fragmentPaths.manifest}'s integrity`, isFragmentFile);
}

/**
 * A list as JSON gave it, checked: an object of at most MAX_INTEGRITY_ENTRIES files, each an allowed path with a
 * well-formed integrity; returned without a prototype, so a lookup of a name the list lacks ("constructor") finds
 * nothing, never Object's.
 * @param {unknown} json
 * @param {string} name what the list is, for the error
 * @param {(file: string) => boolean} allowed
 * @returns {Record<string, string>}
 */
function checkedList(json, name, allowed) {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new IntegrityListError(`${name} must map each file to its integrity`);
  }
  const entries = Object.entries(json);
  if (entries.length > MAX_INTEGRITY_ENTRIES) {
    throw new IntegrityListError(`${name} lists more than ${MAX_INTEGRITY_ENTRIES} files`);
  }
  for (const [file, value] of entries) {
    if (!isBuildPath(file)) throw new IntegrityListError(`${name} names a path outside the build: ${file}`);
    if (!allowed(file)) throw new IntegrityListError(`${name} names a file it may not list: ${file}`);
    if (typeof value !== 'string' || !INTEGRITY_VALUE.test(value)) {
      throw new IntegrityListError(`${name}: ${file} has no ${INTEGRITY_ALGORITHM} integrity`);
    }
  }
  return Object.assign(Object.create(null), json);
}

module.exports = {
  INTEGRITY_ALGORITHM,
  INTEGRITY_FILE,
  INTEGRITY_VALUE,
  IntegrityListError,
  MAX_INTEGRITY_BYTES,
  MAX_INTEGRITY_ENTRIES,
  REFUSED_INTEGRITY,
  fragmentIntegrityFor,
  fragmentIntegrityOf,
  integrityListFor,
  isFragmentFile,
  needsIntegrity,
  parseIntegrityList,
};

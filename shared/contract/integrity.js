// Subresource Integrity, as the build, the store, the servers and the shell agree on it. Each deployable's build
// writes `integrity.json` at the root of its output: the sha384 of every file a browser may load from it (scripts,
// stylesheets, the federation manifest). The store checks it at publish and keeps it with the release; browsers load
// those files only with a matching `integrity`. A file a browser may load but the list lacks is never loaded: its
// loaders give it REFUSED_INTEGRITY, a well-formed value no file matches (an unparsable or empty one would let the
// browser load the file unchecked, which is how integrity fails open).

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

/**
 * Whether a browser may load this file of a build (a path relative to its root, with "/"): its scripts and
 * stylesheets, and the federation manifest. Documents are not subresources, and images and fonts have no integrity
 * in browsers.
 * @param {string} file
 */
function needsIntegrity(file) {
  if (NOT_LOADED.test(file)) return false;
  return /\.(js|css)$/.test(file) || file === 'mf-manifest.json';
}

/**
 * The integrity list a build's files call for: each one a browser may load, sorted, with its integrity. The digest
 * is the caller's (Node's crypto, where the build or the store runs): the contract computes nothing.
 * @param {string[]} files paths relative to the build's root, with "/"
 * @param {(file: string) => string} digestOf the base64 of the INTEGRITY_ALGORITHM digest of the file's bytes
 * @returns {Record<string, string>}
 */
function integrityListFor(files, digestOf) {
  return Object.fromEntries(
    files
      .filter(needsIntegrity)
      .sort()
      .map((file) => [file, `${INTEGRITY_ALGORITHM}-${digestOf(file)}`]),
  );
}

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
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new IntegrityListError(`${INTEGRITY_FILE} must map each file to its integrity`);
  }
  const entries = Object.entries(json);
  if (entries.length > MAX_INTEGRITY_ENTRIES) {
    throw new IntegrityListError(`${INTEGRITY_FILE} lists more than ${MAX_INTEGRITY_ENTRIES} files`);
  }
  for (const [file, value] of entries) {
    if (!isBuildPath(file)) throw new IntegrityListError(`${INTEGRITY_FILE} names a path outside the build: ${file}`);
    if (typeof value !== 'string' || !INTEGRITY_VALUE.test(value)) {
      throw new IntegrityListError(`${INTEGRITY_FILE}: ${file} has no ${INTEGRITY_ALGORITHM} integrity`);
    }
  }
  // Without a prototype: a lookup of a name the list lacks ("constructor") finds nothing, never Object's.
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
  integrityListFor,
  needsIntegrity,
  parseIntegrityList,
};

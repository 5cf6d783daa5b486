// Documents for everyone as files, which nginx sends as it sends any static file. nginx's collector composes them
// whenever what they are made of changes (@nativegtm/server documentFiles.js), into the folder the generated
// configuration names; nginx finds each by its screen and the variant key it computes from the query, and composes
// per request (SSI) what has no file: a personal document, a query only decoding could read, a page not composed yet.
//
//   <folder>/plan.json              written by nginx:config: what the documents are composed with (the shell's folder
//                                   nginx serves, the site's origin, the share of page views measured, the fragment
//                                   timeout), as nginx's SSI locations have them
//   <folder>/<screen>/<key>.html    a document, with <key>.html.gz and <key>.html.br beside it
//   <folder>/<screen>/<canaries>/<key>.html
//                                   with a release store: in a folder named after the canaries the document lists, so
//                                   that nginx sends it only while the canaries it has loaded are those (nginx learns
//                                   them when it is reloaded, the collector from the store: each at its own moment)

/** The plan's file name in the documents folder. */
const PLAN_FILE = 'plan.json';

/**
 * What nginx:config tells the collector to compose documents with: the same values its SSI locations print.
 * @typedef {{ shellRoot: string, origin: string, sampleRate: number, fragmentTimeoutMs: number,
 *   canaryRemotes?: string[] }} DocumentsPlan
 *   shellRoot: the absolute path of the shell's folder nginx serves (its index.html is the template); canaryRemotes:
 *   with a release store, the remotes whose canaries nginx lists, in the order canaryFolder names them
 */

/**
 * A document's file in the documents folder, for nginx's try_files and the collector alike.
 * @param {string} screen a remote's name, or NOT_FOUND_SCREEN
 * @param {string} key the variant key (pageVariant.js; "index" for a page without query parameters)
 * @param {string} [canaries] the folder of the canaries it lists (canaryFolder), with a release store
 */
function documentFile(screen, key, canaries) {
  return canaries === undefined ? `${screen}/${key}.html` : `${screen}/${canaries}/${key}.html`;
}

/**
 * The folder named after the canaries a document lists: each of `remotes`' `<remote>=<share>` or nothing, in that
 * order, joined by commas (nginx writes the same from the variables it lists them with).
 * @param {string[]} remotes the plan's canaryRemotes
 * @param {{ remote: string, share: number }[]} canaries the shares the document lists
 */
function canaryFolder(remotes, canaries) {
  return remotes
    .map((remote) => {
      const canary = canaries.find((listed) => listed.remote === remote);
      return canary ? `${remote}=${canary.share}` : '';
    })
    .join(',');
}

/**
 * The plan in a plan.json, checked: a file that is not one (torn, edited by hand, another version's) is refused in
 * one line, and nothing is composed from it.
 * @param {string} text
 * @returns {DocumentsPlan}
 */
function parseDocumentsPlan(text) {
  /** @type {unknown} */
  let plan;
  try {
    plan = JSON.parse(text);
  } catch {
    throw new Error(`${PLAN_FILE} is not JSON`);
  }
  const { shellRoot, origin, sampleRate, fragmentTimeoutMs } = /** @type {Record<string, unknown>} */ (plan ?? {});
  if (typeof shellRoot !== 'string' || !shellRoot.startsWith('/') || shellRoot.includes('\0')) {
    throw new Error(`${PLAN_FILE} has no shellRoot, an absolute path`);
  }
  if (typeof origin !== 'string' || !/^https?:\/\/[^/?#\s]+$/.test(origin)) {
    throw new Error(`${PLAN_FILE} has no origin such as https://example.com`);
  }
  if (typeof sampleRate !== 'number' || !(sampleRate >= 0 && sampleRate <= 1)) {
    throw new Error(`${PLAN_FILE} has no sampleRate between 0 and 1`);
  }
  if (typeof fragmentTimeoutMs !== 'number' || !Number.isInteger(fragmentTimeoutMs) || fragmentTimeoutMs < 1) {
    throw new Error(`${PLAN_FILE} has no fragmentTimeoutMs, a whole number of milliseconds`);
  }
  const { canaryRemotes } = /** @type {Record<string, unknown>} */ (plan);
  if (
    canaryRemotes !== undefined &&
    !(
      Array.isArray(canaryRemotes) &&
      canaryRemotes.length <= 64 &&
      canaryRemotes.every((remote) => typeof remote === 'string' && /^[a-z][A-Za-z0-9-]{0,39}$/.test(remote))
    )
  ) {
    throw new Error(`${PLAN_FILE} has canaryRemotes that are not a list of remote names`);
  }
  return { shellRoot, origin, sampleRate, fragmentTimeoutMs, ...(canaryRemotes ? { canaryRemotes } : {}) };
}

module.exports = { PLAN_FILE, canaryFolder, documentFile, parseDocumentsPlan };

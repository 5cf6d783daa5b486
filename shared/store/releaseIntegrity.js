// What the site's servers vouch for to browsers, from the store: the integrity of a release's list of its files'
// integrity (its integrity.json, @nativegtm/contract/integrity), which the remotes.json browsers get names. Browsers
// then fetch the list with that integrity, and every file of the release with the integrity the list names: whoever
// can change the release's files where they are served (the bucket, a CDN, the remote's server) cannot change what
// runs, unless they can change the store too.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { LRUCache } = require('lru-cache');
const {
  INTEGRITY_ALGORITHM,
  INTEGRITY_FILE,
  MAX_INTEGRITY_BYTES,
  parseIntegrityList,
} = require('@nativegtm/contract/integrity');
const { fragmentPaths } = require('@nativegtm/contract/fragments');
const { readRecord } = require('./records');

/** Releases whose answer is remembered (it never changes: a release's files and record never do). */
const REMEMBERED = 256;
/** How long an answer of "none" is remembered: a node may be copying the release, but not every request reads it. */
const NONE_REMEMBERED_MS = 1000;
/** What the cache holds for "none" (it caches no undefined). */
const NONE = '';

/**
 * The integrity of a release's list as the store has it: its integrity.json, hashed, only if the list says exactly
 * what the release's record says (publish checked both against the files); otherwise undefined, and browsers refuse
 * the release's files: a list changed on disk since its publish is not vouched for.
 * @param {import('./layout').StoreLayout} layout
 * @param {string} id
 * @returns {string | undefined}
 */
function listIntegrity(layout, id) {
  const recorded = readRecord(layout, id)?.integrity;
  if (!recorded) return undefined;
  let bytes;
  let listed;
  try {
    const file = path.join(layout.release(id), INTEGRITY_FILE);
    if (fs.statSync(file).size > MAX_INTEGRITY_BYTES) return undefined;
    bytes = fs.readFileSync(file);
    listed = parseIntegrityList(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  const files = Object.keys(recorded);
  const same = files.length === Object.keys(listed).length && files.every((file) => listed[file] === recorded[file]);
  if (!same) return undefined;
  return `${INTEGRITY_ALGORITHM}-${createHash(INTEGRITY_ALGORITHM).update(bytes).digest('base64')}`;
}

/**
 * The integrity the release's record names for its ssr/manifest.json, which names each of its server-rendered files'
 * in turn (@nativegtm/contract/integrity): the document server pastes that release's HTML only through this chain.
 * None for a release recorded before lists named it.
 * @param {import('./layout').StoreLayout} layout
 * @param {string} id
 * @returns {string | undefined}
 */
const fragmentManifestIntegrity = (layout, id) => readRecord(layout, id)?.integrity?.[fragmentPaths.manifest];

/**
 * What `read` answers for a release, remembered per release: a release never changes, so each is read once; an
 * answer of "none" is read again after NONE_REMEMBERED_MS, as a node may not have copied the release whole yet, and a
 * request that names a release with none (a forged preview cookie, say) costs no read each.
 * @param {(layout: import('./layout').StoreLayout, id: string) => string | undefined} read
 * @param {{ now?: () => number }} [options]
 */
function rememberedPerRelease(read, { now = Date.now } = {}) {
  /** @type {LRUCache<string, string>} */
  const known = new LRUCache({ max: REMEMBERED });
  /** @type {LRUCache<string, string>} */
  const none = new LRUCache({ max: REMEMBERED, ttl: NONE_REMEMBERED_MS, ttlResolution: 0, perf: { now } });
  /**
   * @param {import('./layout').StoreLayout} layout
   * @param {string} id
   */
  return (layout, id) => {
    const key = `${layout.dir}\0${id}`;
    const remembered = known.get(key) ?? none.get(key);
    if (remembered !== undefined) return remembered || undefined;
    const value = read(layout, id);
    if (value) known.set(key, value);
    else none.set(key, NONE);
    return value;
  };
}

/** @param {{ now?: () => number }} [options] */
const rememberedListIntegrity = (options) => rememberedPerRelease(listIntegrity, options);

/** @param {{ now?: () => number }} [options] */
const rememberedFragmentManifestIntegrity = (options) => rememberedPerRelease(fragmentManifestIntegrity, options);

module.exports = { listIntegrity, rememberedFragmentManifestIntegrity, rememberedListIntegrity };

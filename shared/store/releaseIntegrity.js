// What the site's servers vouch for to browsers, from the store: the integrity of a release's list of its files'
// integrity (its integrity.json, @nativegtm/contract/integrity), which the remotes.json browsers get names. Browsers
// then fetch the list with that integrity, and every file of the release with the integrity the list names: whoever
// can change the release's files where they are served (the bucket, a CDN, the remote's server) cannot change what
// runs, unless they can change the store too.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { LRUCache } = require('lru-cache');
const { INTEGRITY_ALGORITHM, INTEGRITY_FILE, parseIntegrityList } = require('@nativegtm/contract/integrity');
const { readRecord } = require('./records');

/** Releases whose answer is remembered (it never changes: a release's files and record never do). */
const REMEMBERED = 256;

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
    bytes = fs.readFileSync(path.join(layout.release(id), INTEGRITY_FILE));
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
 * listIntegrity, remembered per release: a release never changes, so each is read once (an answer of "none" is read
 * again, as a node may not have copied the release whole yet).
 */
function rememberedListIntegrity() {
  /** @type {LRUCache<string, string>} */
  const known = new LRUCache({ max: REMEMBERED });
  /**
   * @param {import('./layout').StoreLayout} layout
   * @param {string} id
   */
  return (layout, id) => {
    const key = `${layout.dir}\0${id}`;
    const remembered = known.get(key);
    if (remembered) return remembered;
    const value = listIntegrity(layout, id);
    if (value) known.set(key, value);
    return value;
  };
}

module.exports = { listIntegrity, rememberedListIntegrity };

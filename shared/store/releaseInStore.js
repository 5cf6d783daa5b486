// Whether a release is in the store. A publish moves a release's folder into place in one rename, and that folder
// always holds the remote's federation manifest: the manifest's presence is the test, wherever it is made (the
// commands, both servers, and nginx's generated configuration, which tests the same path).
const fs = require('node:fs');
const path = require('node:path');
const { LRUCache } = require('lru-cache');
const { RELEASE_ID } = require('@nativegtm/contract/releases');

/** @typedef {import('./layout').StoreLayout} StoreLayout */

/** The file whose presence makes a folder of the store a release: the remote's federation manifest. */
const RELEASE_MANIFEST = 'mf-manifest.json';

/**
 * @param {StoreLayout} layout
 * @param {string} id
 */
function hasRelease(layout, id) {
  return RELEASE_ID.test(id) && fs.existsSync(path.join(layout.release(id), RELEASE_MANIFEST));
}

/** Answers remembered at once, at most: enough for every release a preview or an open tab asks for. */
const REMEMBERED = 256;

/**
 * hasRelease, each answer remembered for up to `maxAgeMs`: the servers ask on every request of a preview, and a
 * release that appears or is pruned shows within that time. What is not a release id is answered without a look and
 * never remembered, so requests for junk cannot push out the answers for real releases.
 * @param {{ maxAgeMs?: number, now?: () => number }} [options]
 * @returns {(layout: StoreLayout, id: string) => boolean}
 */
function rememberedReleases({ maxAgeMs = 1000, now = Date.now } = {}) {
  /** @type {LRUCache<string, { exists: boolean }>} */
  // ttlResolution 0: the clock is read on every ask, not cached for a millisecond (tests give their own clock).
  const answers = new LRUCache({ max: REMEMBERED, ttl: maxAgeMs, ttlResolution: 0, perf: { now } });
  return (layout, id) => {
    if (!RELEASE_ID.test(id)) return false;
    const key = layout.release(id);
    const known = answers.get(key);
    if (known) return known.exists;
    const exists = hasRelease(layout, id);
    answers.set(key, { exists });
    return exists;
  };
}

module.exports = { RELEASE_MANIFEST, hasRelease, rememberedReleases };

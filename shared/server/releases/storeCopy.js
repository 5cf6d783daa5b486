// What a node serving a copy of the store on PostgreSQL says of it (@nativegtm/store/postgres/snapshotSync.js keeps
// the copy and writes its status): which store revision it serves, how old its last agreement with the database is,
// and whether that is stale. /readyz and the metrics read it; the file is looked at no more often than every 200 ms,
// so a public /readyz cannot make the node read its disk at the rate of the requests.
const { readSnapshotStatus } = require('@nativegtm/store/postgres/snapshotStatus');
const { CHECK_INTERVAL_MS, lookedAtMostEvery } = require('@nativegtm/store/fileReader');

/** A copy that has not agreed with the database for this long (three looks missed) is stale. */
const STALE_AFTER_MS = 15_000;

/**
 * @typedef {{ present: boolean, revision?: string, syncedAt?: string, ageSeconds?: number, stale: boolean,
 *   problem?: string }} StoreCopy
 *   present: the node holds a copy (with a database configured, a node without one is not ready)
 */

/**
 * @param {string} dir the node's store folder
 * @param {{ now?: () => number }} [options]
 * @returns {() => StoreCopy}
 */
function storeCopyReader(dir, { now = Date.now } = {}) {
  const status = lookedAtMostEvery(() => readSnapshotStatus(dir), { checkIntervalMs: CHECK_INTERVAL_MS, now });
  return () => {
    const read = status();
    if (!read) return { present: false, stale: true, problem: 'no copy of the store yet' };
    const ageMs = Math.max(0, now() - Date.parse(read.syncedAt));
    return {
      present: true,
      revision: read.revision,
      syncedAt: read.syncedAt,
      ageSeconds: Math.round(ageMs / 100) / 10,
      // Stale, and still ready: the node serves what it last knew (docs/many-nodes.md).
      stale: read.problem !== undefined || ageMs > STALE_AFTER_MS,
      ...(read.problem ? { problem: read.problem } : {}),
    };
  };
}

module.exports = { storeCopyReader, STALE_AFTER_MS };

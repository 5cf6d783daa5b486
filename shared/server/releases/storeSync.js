// The one process of a node that keeps its copy of the store on PostgreSQL (@nativegtm/store/postgres/snapshotSync.js)
// in the folder both servers read: the built-in server's primary, or the collector beside nginx. Its syncs and its
// problems are in the logs; /readyz and the metrics read what the copy says of itself (storeCopy.js).
const { startSnapshotSync } = require('@nativegtm/store/postgres/snapshotSync');

/**
 * Starts the sync when the store is on PostgreSQL; undefined on a folder store.
 * @param {{ DATABASE_URL?: string, RELEASES_BUCKET?: string }} config
 * @param {string} dir the node's store folder (RELEASES_DIR)
 * @param {import('../observability/logger').Logger} logger
 * @param {{ onCanaryChange?: () => Promise<void> }} [options]
 */
function startStoreSync(config, dir, logger, { onCanaryChange } = {}) {
  if (!config.DATABASE_URL || !config.RELEASES_BUCKET) return undefined;
  return startSnapshotSync({
    databaseUrl: config.DATABASE_URL,
    bucketUrl: config.RELEASES_BUCKET,
    dir,
    onSync: ({ revision, ms }) => logger.info({ revision, ms }, 'store copy synced'),
    onProblem: (problem) => logger.warn({ problem }, 'store copy not synced: serving what it last knew'),
    onCanaryChange,
  });
}

module.exports = { startStoreSync };

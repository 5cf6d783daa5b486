// The store on PostgreSQL (DATABASE_URL) with its releases' files in object storage (RELEASES_BUCKET), as the release
// commands use it: a RemoteStore (../remoteStore.js) per remote on the PostgreSQL backend (./postgresBackend.js).
// Nodes serve a copy of it on their own disk, kept in step with the database (docs/many-nodes.md).
const { remoteStore } = require('../remoteStore');
const { openDatabase } = require('./database');
const { openObjectStore } = require('./objectStore');
const { postgresBackend } = require('./postgresBackend');

/**
 * @param {{ databaseUrl: string, bucketUrl: string, env?: NodeJS.ProcessEnv, orphanAgeMs?: number }} options
 *   orphanAgeMs: how old files no release names must be before prune removes them (an hour)
 */
function openPostgresStore({ databaseUrl, bucketUrl, env = process.env, orphanAgeMs }) {
  const database = openDatabase(databaseUrl);
  const objects = openObjectStore(bucketUrl, { env });
  /**
   * @param {string} remote
   * @param {{ actor?: import('../actor').Actor }} [as] actor: who makes the changes (this process's user and host
   *   unless given: the deploy API names each request's credential)
   */
  const backend = (remote, { actor } = {}) => postgresBackend(remote, { database, objects, orphanAgeMs, actor });
  return {
    where: objects.where,
    /** @type {(remote: string, as?: { actor?: import('../actor').Actor }) => import('../remoteStore').RemoteStore} */
    remote: (remote, as) => remoteStore(backend(remote, as)),
    backend,
    close: async () => {
      objects.close();
      await database.close();
    },
  };
}

module.exports = { openPostgresStore };

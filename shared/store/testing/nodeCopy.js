// What a node's copy of the store on PostgreSQL serves of each remote, beside what the database holds: the two must
// be equal once the node synced after the last commit (../postgres/snapshotSync.js).
const { remoteNames } = require('@nativegtm/contract/remotes');
const { readCanary } = require('../canaryInStore');
const { isEndedCanary } = require('../canaryChanges');
const { storeLayout } = require('../layout');
const { isLiveChange, readHistory, readJsonLines } = require('../liveHistory');
const { readLivePointer } = require('../livePointer');
const { listReleases } = require('../records');
const { readRemote } = require('../postgres/postgresBackend');

/**
 * One remote as a node serves it, or as the database has it, in one shape.
 * @typedef {{ releases: string[], live: string | null, history: unknown[], canary: unknown, ended: unknown[] }} Served
 */

/**
 * @param {string} dir the node's store folder
 * @returns {Record<string, Served>}
 */
function servedByNode(dir) {
  return Object.fromEntries(
    remoteNames.map((remote) => {
      const layout = storeLayout(dir, remote);
      return [
        remote,
        {
          releases: listReleases(layout)
            .map((record) => record.id)
            .sort(),
          live: readLivePointer(layout).id ?? null,
          history: readHistory(layout),
          canary: readCanary(layout).canary ?? null,
          ended: readJsonLines(layout.canaryHistory).filter(isEndedCanary),
        },
      ];
    }),
  );
}

/**
 * @param {import('../postgres/database').Database} database
 * @returns {Promise<Record<string, Served>>}
 */
function heldByDatabase(database) {
  return database.transaction(
    async (client) => {
      /** @type {Record<string, Served>} */
      const held = {};
      for (const remote of remoteNames) {
        const rows = await readRemote(client, remote);
        held[remote] = {
          releases: [...rows.releases.keys()].sort(),
          live: rows.live,
          history: rows.history.filter(isLiveChange),
          canary: rows.canary ?? null,
          ended: rows.ended.filter(isEndedCanary),
        };
      }
      return held;
    },
    { readOnly: true },
  );
}

module.exports = { servedByNode, heldByDatabase };

// A node's copy of the store on PostgreSQL, in the folder layout (../layout.js) both servers read as they always do:
// no document request reads the database. One process per node keeps it (the built-in server's primary, nginx's
// collector). It learns of each change from the database at once (LISTEN on a direct connection: a pooler in
// transaction mode drops it; docs/many-nodes.md), and looks every 5 s besides, in case a notification was lost.
//
// Each sync brings every remote's folder to the database's state, under the folder's lock: releases it lacks are
// downloaded, checked against their recorded sha256 and put in place whole before anything names them; then the
// gates, the history, the live pointer, the canary, the ended canaries and the preview marks; releases pruned from
// the database go last. While the database cannot be reached, the node serves what it last knew, and says how old it
// is (./snapshotStatus.js); it catches up at the first look after the database is back.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const { Client } = require('pg');
const { remoteNames } = require('@nativegtm/contract/remotes');
const { storeLayout } = require('../layout');
const { canaryStateProblem, readCanary, writeCanary, endCanary } = require('../canaryInStore');
const { isEndedCanary } = require('../canaryChanges');
const { writeFileDurably } = require('../durableFiles');
const { removeRelease, removeUnusedFiles } = require('../folderBackend');
const { isLiveChange, readHistory, readJsonLines } = require('../liveHistory');
const { readLivePointer, writeLivePointer } = require('../livePointer');
const { publishRelease } = require('../publish');
const { listReleases, readGate, writeGate } = require('../records');
const { withStoreLock } = require('../storeLock');
const { openDatabase } = require('./database');
const { openObjectStore } = require('./objectStore');
const { CHANGES_CHANNEL, downloadRelease, readRemote } = require('./postgresBackend');
const { readSnapshotStatus, writeSnapshotStatus } = require('./snapshotStatus');

/** How often a node looks at the database besides its notifications. */
const POLL_MS = 5_000;
/** How soon a node tries to listen again once its connection is gone: it catches up as soon as the database is back. */
const RECONNECT_MS = 250;
/**
 * How soon a node looks again after a look failed (object storage gone a moment, a download cut off), doubling up to
 * POLL_MS while it keeps failing: a node has the change within a moment of what it needs coming back, not at the
 * next poll.
 */
const RETRY_MS = 250;

/**
 * @param {unknown[]} values
 * @returns {string} JSON lines
 */
const jsonLines = (values) => values.map((value) => `${JSON.stringify(value)}\n`).join('');

/**
 * Brings one remote's folder to the database's rows.
 * @param {string} dir the node's store folder
 * @param {string} remote
 * @param {import('./postgresBackend').RemoteRows} rows
 * @param {import('./objectStore').ObjectStore} objects
 * @param {() => void} canaryWritten  called once the copy's canary changed on disk: its servers must be told even
 *   when a later step of this sync fails (the next sync finds the copy's canary as the database has it)
 * @returns {Promise<{ refused: string[] }>} refused: why releases could not be copied (the rest is synced, and
 *   nothing names them)
 */
function syncRemote(dir, remote, rows, objects, canaryWritten) {
  const layout = storeLayout(dir, remote);
  fs.mkdirSync(layout.dir, { recursive: true });
  return withStoreLock(layout.lock, `sync ${remote}`, async (fence) => {
    const here = new Set(listReleases(layout).map((record) => record.id));
    /** @type {string[]} */
    const refused = [];
    for (const [id, { record, files }] of rows.releases) {
      if (here.has(id)) continue;
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `nativegtm-sync-${remote}-`));
      try {
        await downloadRelease(objects, remote, id, files, scratch);
        publishRelease(layout, remote, scratch, { commit: record.commit, dirty: record.dirty, record, fence });
      } catch (error) {
        // One release refused (a file changed in the bucket) stops neither this remote's other changes nor the others.
        refused.push(/** @type {Error} */ (error).message);
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    }
    const present = new Set(listReleases(layout).map((record) => record.id));
    for (const [id, result] of rows.gates) {
      if (!isDeepStrictEqual(readGate(layout, id), result)) writeGate(layout, id, result, fence);
    }
    const history = rows.history.filter(isLiveChange);
    if (!isDeepStrictEqual(readHistory(layout), history)) {
      writeFileDurably(layout.history, jsonLines(history), { fence });
    }
    if (rows.live && present.has(rows.live) && readLivePointer(layout).id !== rows.live) {
      writeLivePointer(layout, rows.live, fence);
    }
    if (!rows.live) {
      fence();
      fs.rmSync(layout.live, { force: true });
    }

    // The canary nginx was last told of may still be served from its own path until its reload: kept this sync.
    const canaryBefore = readCanary(layout).canary?.id;
    // A state this version cannot use puts no one in a canary, as on a folder.
    const usable = rows.canary !== undefined && !canaryStateProblem(rows.canary);
    const wanted = usable && present.has(/** @type {any} */ (rows.canary).id) ? rows.canary : undefined;
    const canaryChanged = !isDeepStrictEqual(readCanary(layout).canary, wanted);
    if (canaryChanged && wanted) writeCanary(layout, remote, /** @type {any} */ (wanted), fence);
    if (canaryChanged && !wanted) endCanary(layout, fence);
    if (canaryChanged) canaryWritten();
    const ended = rows.ended.filter(isEndedCanary);
    if (!isDeepStrictEqual(readJsonLines(layout.canaryHistory).filter(isEndedCanary), ended)) {
      writeFileDurably(layout.canaryHistory, jsonLines(ended), { fence });
    }
    for (const { id, mark } of rows.marks) {
      if (!fs.existsSync(layout.previewMark(id, mark))) {
        fs.mkdirSync(layout.previewMarks, { recursive: true });
        fence();
        fs.writeFileSync(layout.previewMark(id, mark), '');
      }
    }
    // Pruned last: nothing this node serves names them any more. Unless the copy still names one, because what
    // replaced it could not be copied: the node serves it whole until it can name another. And the canary this sync
    // ended, which nginx serves until it is told (after this sync): pruned at the remote's next sync.
    const named = new Set([readLivePointer(layout).id, readCanary(layout).canary?.id, canaryBefore]);
    const keep = (/** @type {string} */ id) => rows.releases.has(id) || named.has(id);
    const kept = listReleases(layout).filter((record) => keep(record.id));
    for (const id of present) if (!keep(id)) removeRelease(layout, id, fence);
    if (kept.length !== present.size) removeUnusedFiles(layout, kept, fence);
    return { refused };
  });
}

/**
 * The store revision, and the rows of every remote whose revision is not the one `synced` has, as one transaction saw
 * them: a change of one remote reads and syncs that remote alone.
 * @param {import('./database').Database} database
 * @param {Map<string, string>} synced each remote's revision as this node last synced it
 */
function readChanged(database, synced) {
  return database.transaction(
    async (client) => {
      const { rows } = await client.query('SELECT remote, revision FROM remotes');
      const revisions = new Map(rows.map((row) => [row.remote, String(row.revision)]));
      const revision = String(Math.max(0, ...rows.map((row) => Number(row.revision))));
      /** @type {Map<string, { revision: string, rows: import('./postgresBackend').RemoteRows }>} */
      const changed = new Map();
      for (const remote of remoteNames) {
        const at = revisions.get(remote) ?? '0';
        if (synced.get(remote) !== at) changed.set(remote, { revision: at, rows: await readRemote(client, remote) });
      }
      return { revision, changed };
    },
    { readOnly: true },
  );
}

/**
 * The revision the database is at: what a look every few seconds reads.
 * @param {import('./database').Database} database
 */
async function storeRevision(database) {
  return database.transaction(
    async (client) =>
      String((await client.query('SELECT coalesce(max(revision), 0) AS revision FROM remotes')).rows[0].revision),
    { readOnly: true },
  );
}

/**
 * @typedef {{ onSync?: (event: { revision: string, ms: number, canaryChanged: boolean }) => void,
 *   onProblem?: (problem: string) => void, onCanaryChange?: () => Promise<void> }} SyncEvents
 *   onSync: after each sync that changed the copy; onProblem: once per distinct problem (the database down, a file
 *   refused); onCanaryChange: after a sync that changed a canary (nginx reads canaries when it loads its configuration);
 *   when it rejects, again at every look until it resolves (an nginx that failed to reload is not left serving the
 *   canary's old shares until the next canary change)
 */

/**
 * What brings the node's copy to the database: each sync() is one look, or once more after the one under way. Apart
 * from the connections it runs on, so that a test can run it on connections whose every query it schedules.
 * @param {{ database: import('./database').Database, objects: import('./objectStore').ObjectStore, dir: string }
 *   & SyncEvents} options
 */
function snapshotSyncer({
  database,
  objects,
  dir,
  onSync = () => {},
  onProblem = () => {},
  onCanaryChange = async () => {},
}) {
  let stopped = false;
  /** @type {Promise<void> | undefined} */
  let running;
  let again = false;
  /** @type {string | undefined} */
  let lastProblem;
  /** @type {Map<string, string>} */
  const synced = new Map();
  /** A canary changed and onCanaryChange has not yet succeeded: tried again at every look until it does. */
  let canaryTellOwed = false;

  async function tellCanaryChange() {
    if (!canaryTellOwed) return;
    try {
      await onCanaryChange();
      canaryTellOwed = false;
    } catch {
      // Its caller said why (an nginx that did not reload); the next look tries again, changed or not.
    }
  }

  /** @param {string | undefined} problem */
  function record(problem) {
    const before = readSnapshotStatus(dir);
    if (problem && problem !== lastProblem) onProblem(problem);
    lastProblem = problem;
    // A problem keeps the copy's revision and the time it last agreed with the database.
    if (problem && before) writeSnapshotStatus(dir, { ...before, problem });
  }

  async function syncOnce() {
    const started = performance.now();
    try {
      await lookOnce(started);
    } finally {
      // Whatever else failed: a canary this look (or one before) changed on disk is told to the servers.
      await tellCanaryChange();
    }
  }

  /** @param {number} started */
  async function lookOnce(started) {
    try {
      const known = readSnapshotStatus(dir);
      // Revisions follow commit order (./postgresBackend.js): at the revision it has, the copy has every change.
      if (known && !known.problem && (await storeRevision(database)) === known.revision) {
        writeSnapshotStatus(dir, { revision: known.revision, syncedAt: new Date().toISOString() });
        lastProblem = undefined;
        return;
      }
      const { revision, changed } = await readChanged(database, synced);
      let canaryChanged = false;
      /** @type {string[]} why a release could not be copied, or a remote not synced */
      const refused = [];
      // Owed as soon as a canary changed on disk: a later step's failure must not drop it.
      const written = () => {
        canaryChanged = true;
        canaryTellOwed = true;
      };
      for (const [remote, { revision: at, rows }] of changed) {
        try {
          const result = await syncRemote(dir, remote, rows, objects, written);
          refused.push(...result.refused);
          if (result.refused.length === 0) synced.set(remote, at);
        } catch (error) {
          // One remote that cannot be synced (its folder refuses a write) holds up none of the others.
          refused.push(`${remote}: ${/** @type {Error} */ (error).message}`);
        }
      }
      // A copy that lacks a release, or a remote, is not at the revision: looked at again at the next look.
      if (refused.length > 0) throw new Error(refused.join('; '));
      writeSnapshotStatus(dir, { revision, syncedAt: new Date().toISOString() });
      lastProblem = undefined;
      onSync({ revision, ms: Math.round(performance.now() - started), canaryChanged });
    } catch (error) {
      record(/** @type {Error} */ (error).message);
    }
  }

  /** Syncs now, or once more after the sync under way: a change told during one is never missed. */
  function sync() {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await syncOnce();
      } while (again && !stopped);
      running = undefined;
    })();
    return running;
  }

  return {
    sync,
    /** Whether the last look failed (the database, a download, a refused file): the copy is behind. */
    failing: () => lastProblem !== undefined,
    /** Resolves once the sync under way, if any, ended; none starts after. */
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

/**
 * Keeps the node's copy in step with the database until stopped.
 * @param {{ databaseUrl: string, bucketUrl: string, dir: string, pollMs?: number } & SyncEvents} options
 */
function startSnapshotSync({ databaseUrl, bucketUrl, dir, pollMs = POLL_MS, ...events }) {
  const database = openDatabase(databaseUrl, { max: 1 });
  const objects = openObjectStore(bucketUrl);
  const syncer = snapshotSyncer({ database, objects, dir, ...events });
  let stopped = false;
  /** @type {NodeJS.Timeout | undefined} */
  let again;
  let retryMs = RETRY_MS;
  /** A look, and another soon after if it failed. */
  const sync = async () => {
    await syncer.sync();
    clearTimeout(again);
    if (stopped || !syncer.failing()) {
      retryMs = RETRY_MS;
      return;
    }
    again = setTimeout(() => void sync(), retryMs);
    again.unref();
    retryMs = Math.min(retryMs * 2, pollMs);
  };

  /** @type {Client | undefined} */
  let listener;
  /** @type {NodeJS.Timeout | undefined} */
  let reconnect;
  async function listen() {
    if (stopped) return;
    const client = new Client({ connectionString: databaseUrl });
    listener = client;
    const retry = () => {
      if (listener !== client || stopped) return;
      listener = undefined;
      client.end().catch(() => {});
      reconnect = setTimeout(() => void listen(), RECONNECT_MS);
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', () => void sync());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      // Whatever changed while it was not listening.
      void sync();
    } catch {
      retry();
    }
  }

  const poll = setInterval(() => void sync(), pollMs);
  poll.unref();
  void listen();
  const first = sync();

  return {
    /** Resolves once the first sync was tried. */
    ready: first,
    sync,
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      clearTimeout(reconnect);
      clearTimeout(again);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
      await syncer.stop();
      objects.close();
      await database.close();
    },
  };
}

module.exports = { startSnapshotSync, snapshotSyncer };

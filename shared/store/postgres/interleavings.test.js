/** @jest-environment node */
// Changes of two remotes and a node's syncs, run concurrently on one PostgreSQL, every query and commit in an order a
// fast-check scheduler picks: whatever the order, once the node syncs after the last commit (as the last commit's
// notification makes it), it serves exactly what the database holds. This is the race where a change that took a
// lower revision commits after a node synced a higher one, and the node then thought it had it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const fc = require('fast-check');
const S3rver = require('s3rver');
const { remoteNames } = require('@nativegtm/contract/remotes');
const { remoteStore } = require('../remoteStore');
const { openDatabase } = require('./database');
const { openObjectStore } = require('./objectStore');
const { openPostgresStore } = require('./postgresStore');
const { postgresBackend } = require('./postgresBackend');
const { snapshotSyncer } = require('./snapshotSync');
const { startStoreServices } = require('../testing/storeServices');
const { fakeBuild, removeFakeBuilds } = require('../testing/fakeBuild');
const { scheduledTransactions } = require('../testing/scheduledDatabase');
const { heldByDatabase, servedByNode } = require('../testing/nodeCopy');

jest.setTimeout(180_000);

/** @type {Awaited<ReturnType<typeof startStoreServices>>} */
let services;
/** @type {{ databaseUrl: string, bucketUrl: string }} */
let where;
/** @type {ReturnType<typeof openDatabase>} */
let database;
/** @type {ReturnType<typeof openObjectStore>} */
let objects;
/** The node's store folder, kept from one run to the next (each begins with a sync that brings it up to date). */
let node = '';
/** Two releases of each remote, which its changes make live in turn. */
const ids = /** @type {Record<string, [string, string]>} */ ({});

beforeAll(async () => {
  services = await startStoreServices({ S3rver });
  where = { databaseUrl: await services.postgres.migratedDatabase(), bucketUrl: `s3://${services.storage.bucket}/i` };
  const store = openPostgresStore(where);
  for (const remote of remoteNames) {
    /** @param {string} name */
    const publish = async (name) => {
      const build = fakeBuild({ remote, buildId: `${remote}-${name}`, chunk: `${name}.0123456789.js` });
      return (await store.remote(remote).publish(build, { commit: null, dirty: false })).id;
    };
    const a = await publish('a');
    ids[remote] = [a, await publish('b')];
    await store.remote(remote).promote(a, { gate: null });
  }
  await store.close();
  database = openDatabase(where.databaseUrl, { max: 6 });
  node = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-node-'));
  objects = openObjectStore(where.bucketUrl);
});
afterAll(async () => {
  objects?.close();
  await database?.close();
  removeFakeBuilds();
  if (node) fs.rmSync(node, { recursive: true, force: true });
  await services?.stop();
});

/**
 * Makes the other release of the remote live, `times` times in a row, each a change of its own.
 * @param {import('../remoteStore').RemoteStore} store
 * @param {string | null | undefined} live
 * @param {number} times
 */
async function toggle(store, live, times) {
  const [a, b] = /** @type {[string, string]} */ (ids[store.remote]);
  for (let done = 0; done < times; done += 1) {
    live = live === a ? b : a;
    await store.promote(live, { gate: null });
  }
}

it('brings a node to every change a notification tells it of, whatever order changes and syncs reach the database', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.scheduler(),
      fc.array(fc.integer({ min: 0, max: 3 }), { minLength: remoteNames.length, maxLength: remoteNames.length }),
      fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 2 }),
      async (s, times, polls) => {
        // The node has everything before the changes: only the orders of what follows are explored.
        await snapshotSyncer({ database, objects, dir: node }).sync();
        const before = await heldByDatabase(database);
        const { scheduledDatabase, drive } = scheduledTransactions(s);
        const syncer = snapshotSyncer({ database: scheduledDatabase(database, 'node'), objects, dir: node });
        /** @type {Promise<void>[]} */
        const looks = [];
        /** @type {string[]} */
        const missed = [];
        /**
         * A sync once the scheduler let `hops` turns go by (a poll, or a notification on its way), then what it must
         * have brought.
         * @param {string} why
         * @param {number} hops
         * @param {() => void} [then]
         */
        const lookAfter = (why, hops, then = () => {}) => {
          let turn = s.schedule(Promise.resolve(), why);
          for (let hop = 0; hop < hops; hop += 1) turn = turn.then(() => s.schedule(Promise.resolve(), why));
          looks.push(turn.then(syncer.sync).then(then));
        };
        for (const hops of polls) lookAfter('poll', hops);
        // Each remote's changes one after the other, as one command makes them; the remotes' at once. Each commit
        // notifies the node: the sync that notification starts must bring the node to that commit at least (each
        // promote adds a line to its remote's history).
        const changes = remoteNames.map((remote, at) => {
          let committed = before[remote]?.history.length ?? 0;
          const afterCommit = () => {
            const lines = (committed += 1);
            lookAfter('notify', 0, () => {
              const served = servedByNode(node)[remote]?.history.length ?? 0;
              if (served < lines) missed.push(`${remote}: line ${lines} told, ${served} served`);
            });
          };
          const scheduled = scheduledDatabase(database, remote, { afterCommit });
          return toggle(
            remoteStore(postgresBackend(remote, { database: scheduled, objects })),
            before[remote]?.live,
            times[at] ?? 0,
          );
        });
        await drive(Promise.all(changes));
        await drive(Promise.all(looks));
        expect(missed).toEqual([]);
        expect(servedByNode(node)).toEqual(await heldByDatabase(database));
      },
    ),
    { numRuns: Number(process.env.RUNS ?? 50), endOnFailure: true },
  );
});

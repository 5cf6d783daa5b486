/** @jest-environment node */
// Changes, a node's syncs and a canary's lease, run concurrently on one PostgreSQL, each transaction's steps in an
// order a fast-check scheduler picks (../testing/scheduledDatabase.js). Whatever the order:
// - each sync a commit's notification starts brings the node to that commit, and once the last one ran the node
//   serves exactly what the database holds (the race where a change that took a lower revision committed after a
//   node synced a higher one, and the node thought it had it);
// - a lease renewal and a take-over of the same canary never both succeed, and the command whose canary was taken
//   over changes nothing after (a renewal is no change of the store, so nothing else orders the two).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const fc = require('fast-check');
const S3rver = require('s3rver');
const { remoteNames } = require('@nativegtm/contract/remotes');
const { remoteStore } = require('../remoteStore');
const { CanaryGone } = require('../canaryChanges');
const { ReleaseError } = require('../operations');
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
    { numRuns: Number(process.env.RUNS ?? 40), endOnFailure: true },
  );
});

it('lets a canary be renewed by its command or taken over by another, never both, whatever the order', async () => {
  const settings = { stepTimeMs: 60_000, minViews: 40, maxWaitMs: 60_000 };
  const plain = remoteStore(postgresBackend('jobs', { database, objects }));
  /**
   * Whether the change was made: false for the refusal a lost race gives, the error for anything else.
   * @param {Promise<unknown>} change
   */
  const made = (change) =>
    change.then(
      () => true,
      (error) => {
        if (error instanceof CanaryGone || error instanceof ReleaseError) return false;
        throw error;
      },
    );
  await fc.assert(
    fc.asyncProperty(fc.scheduler(), async (s) => {
      const start = Date.now();
      const [a, b] = /** @type {[string, string]} */ (ids.jobs);
      const next = (await heldByDatabase(database)).jobs?.live === a ? b : a;
      const mine = await plain.startCanary(next, {
        steps: [25, 100],
        settings,
        gate: null,
        now: () => start,
        leaseTtlMs: 1000,
      });
      const { scheduledDatabase, drive } = scheduledTransactions(s);
      const holder = remoteStore(postgresBackend('jobs', { database: scheduledDatabase(database, 'holder'), objects }));
      const other = remoteStore(postgresBackend('jobs', { database: scheduledDatabase(database, 'other'), objects }));
      // At 1.2 s the lease the canary started with ran out, the one renewed at 0.6 s not.
      const renewing = holder.renewLease(mine, start + 600).then(
        async (renewed) => ({
          renewed: true,
          stepped: await made(holder.advanceCanary(renewed, passedAt(start), 100, start + 700)),
        }),
        (error) => {
          if (!(error instanceof CanaryGone)) throw error;
          return { renewed: false, stepped: false };
        },
      );
      const taking = made(other.takeOverCanary({ now: () => start + 1200 }));
      const [{ renewed, stepped }, taken] = await drive(Promise.all([renewing, taking]));
      const audit = (await plain.audit()).map((entry) => entry.action);
      const { canary } = await plain.canary();
      await plain.abortCanary({ now: Date.now });
      expect(renewed).not.toBe(taken);
      if (taken) {
        expect(stepped).toBe(false);
        expect(canary).toMatchObject({ share: 25, lease: { epoch: 2 } });
        expect(audit.at(-1)).toBe('canary jobs --resume');
      } else {
        expect(stepped).toBe(true);
        expect(canary).toMatchObject({ share: 100, lease: { epoch: 1 } });
      }
    }),
    { numRuns: Number(process.env.RUNS ?? 30), endOnFailure: true },
  );
});

it('never refuses a change that did not read the canary for a lease renewed meanwhile, whatever the order', async () => {
  const settings = { stepTimeMs: 60_000, minViews: 40, maxWaitMs: 60_000 };
  const plain = remoteStore(postgresBackend('jobs', { database, objects }));
  await fc.assert(
    fc.asyncProperty(fc.scheduler(), async (s) => {
      const start = Date.now();
      const [a, b] = /** @type {[string, string]} */ (ids.jobs);
      const next = (await heldByDatabase(database)).jobs?.live === a ? b : a;
      const mine = await plain.startCanary(next, { steps: [25, 100], settings, gate: null, now: () => start });
      const { scheduledDatabase, drive } = scheduledTransactions(s);
      const holder = remoteStore(postgresBackend('jobs', { database: scheduledDatabase(database, 'holder'), objects }));
      // A release's gate recorded, as a gate that ran beside the canary records it: it reads no canary.
      const team = postgresBackend('jobs', { database: scheduledDatabase(database, 'team'), objects });
      const gate = { at: new Date(start).toISOString(), passed: true, checks: [{ name: 'hydration', ok: true }] };
      await drive(
        Promise.all([
          team.change(`gate jobs ${next}`, async (state) => state.writeGate(next, gate)),
          holder.renewLease(mine, start + 600).then((renewed) => holder.renewLease(renewed, start + 1200)),
        ]),
      );
      await plain.abortCanary({ now: Date.now });
    }),
    { numRuns: Number(process.env.RUNS ?? 20), endOnFailure: true },
  );
});

/**
 * A step that passed, as the canary command records it.
 * @param {number} at
 */
const passedAt = (at) =>
  /** @type {const} */ ({ share: 25, verdict: 'pass', reason: 'ok', at: new Date(at).toISOString() });

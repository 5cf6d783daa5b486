/** @jest-environment node */
// A node's copy of the store on PostgreSQL: the folder both servers read, kept in step by notifications, serving what
// it last knew while the database is down.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const S3rver = require('s3rver');
const { openFolderStore } = require('../folderStore');
const { storeLayout } = require('../layout');
const { readCanary } = require('../canaryInStore');
const { readLivePointer } = require('../livePointer');
const { openObjectStore } = require('./objectStore');
const { openPostgresStore } = require('./postgresStore');
const { openDatabase } = require('./database');
const { snapshotSyncer, startSnapshotSync } = require('./snapshotSync');
const { readSnapshotStatus } = require('./snapshotStatus');
const { startStoreServices } = require('../testing/storeServices');
const { fakeBuild, removeFakeBuilds } = require('../testing/fakeBuild');

jest.setTimeout(60_000);

/** @type {Awaited<ReturnType<typeof startStoreServices>>} */
let services;
/** @type {typeof services.postgres} */
let postgres;
/** @type {typeof services.storage} */
let storage;
/** @type {string} */
let node;
/** @type {{ databaseUrl: string, bucketUrl: string }} */
let where;
/** @type {ReturnType<typeof openPostgresStore>} */
let store;
/** @type {ReturnType<typeof startSnapshotSync> | undefined} */
let sync;
/** @type {{ revision: string, ms: number, canaryChanged: boolean }[]} */
let syncs;
/** @type {string[]} */
let problems;
let prefixes = 0;

beforeAll(async () => {
  services = await startStoreServices({ S3rver });
  ({ postgres, storage } = services);
});
afterAll(() => services?.stop());
beforeEach(async () => {
  node = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-node-'));
  prefixes += 1;
  where = { databaseUrl: await postgres.migratedDatabase(), bucketUrl: `s3://${storage.bucket}/sync${prefixes}` };
  store = openPostgresStore(where);
  syncs = [];
  problems = [];
});
afterEach(async () => {
  await sync?.stop();
  sync = undefined;
  await store.close();
  fs.rmSync(node, { recursive: true, force: true });
  removeFakeBuilds();
});

const start = () => {
  sync = startSnapshotSync({
    ...where,
    dir: node,
    onSync: (event) => syncs.push(event),
    onProblem: (problem) => problems.push(problem),
  });
  return sync.ready;
};

/**
 * Resolves once the node synced to `revision` or past it: the sync's own event, not a clock.
 * @param {() => boolean} done
 */
async function until(done) {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error('the node did not sync');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** @param {string} name */
const publish = async (name) =>
  (
    await store
      .remote('jobs')
      .publish(fakeBuild({ buildId: name, chunk: `${name}.0123456789.js` }), { commit: 'abc', dirty: false })
  ).id;

const jobs = () => storeLayout(node, 'jobs');

it('copies the database into the folder the servers read: releases, what is live, the history and gates', async () => {
  const a = await publish('a');
  const b = await publish('b');
  await store.remote('jobs').promote(a, { gate: null });
  await store.remote('jobs').promote(b, { gate: null });
  await start();
  const here = openFolderStore(node).remote('jobs');
  expect(readLivePointer(jobs())).toEqual({ id: b });
  expect(await here.releases()).toEqual(await store.remote('jobs').releases());
  expect(await here.changes()).toEqual(await store.remote('jobs').changes());
  expect(fs.existsSync(path.join(jobs().release(a), 'remoteEntry.js'))).toBe(true);
  expect(readSnapshotStatus(node)).toMatchObject({ revision: syncs.at(-1)?.revision });
});

it('learns of a promote from the database at once, and of a canary and its end', async () => {
  const a = await publish('a');
  const b = await publish('b');
  await store.remote('jobs').promote(a, { gate: null });
  await start();
  const started = performance.now();
  await store.remote('jobs').promote(b, { gate: null });
  await until(() => readLivePointer(jobs()).id === b);
  // Notified, not polled (every 5 s).
  expect(performance.now() - started).toBeLessThan(1000);

  await store.remote('jobs').rollback();
  const c = await publish('c');
  await store.remote('jobs').startCanary(c, {
    steps: [25, 100],
    settings: { stepTimeMs: 1, minViews: 1, maxWaitMs: 1 },
    gate: null,
    now: Date.now,
  });
  await until(() => readCanary(jobs()).canary?.id === c);
  await store.remote('jobs').abortCanary({ now: Date.now });
  await until(() => readCanary(jobs()).canary === undefined);
  expect(syncs.some((event) => event.canaryChanged)).toBe(true);
});

it('removes what prune removed from the database', async () => {
  /** @type {string[]} */
  const ids = [];
  for (const name of ['a', 'b', 'c']) ids.push(await publish(name));
  await store.remote('jobs').promote(/** @type {string} */ (ids[2]), { gate: null });
  await start();
  expect(fs.existsSync(jobs().release(/** @type {string} */ (ids[0])))).toBe(true);
  await store.remote('jobs').prune({ keep: 0 });
  await until(() => !fs.existsSync(jobs().release(/** @type {string} */ (ids[0]))));
  expect(readLivePointer(jobs())).toEqual({ id: ids[2] });
});

it('serves what it last knew while the database is down, says so, and catches up once it is back', async () => {
  const a = await publish('a');
  const b = await publish('b');
  await store.remote('jobs').promote(a, { gate: null });
  await start();
  const before = /** @type {import('./snapshotStatus').SnapshotStatus} */ (readSnapshotStatus(node));
  postgres.stop();
  try {
    await /** @type {NonNullable<typeof sync>} */ (sync).sync();
    expect(readSnapshotStatus(node)).toMatchObject({
      revision: before.revision,
      syncedAt: before.syncedAt,
      problem: expect.stringMatching(/database cannot be reached/),
    });
    expect(readLivePointer(jobs())).toEqual({ id: a });
    expect(problems).toHaveLength(1);
  } finally {
    postgres.start();
  }
  await store.remote('jobs').promote(b, { gate: null });
  await until(() => readLivePointer(jobs()).id === b && readSnapshotStatus(node)?.problem === undefined);
});

it('has no copy, so is not ready, when it starts with neither the database nor a copy', async () => {
  postgres.stop();
  try {
    await start();
    expect(readSnapshotStatus(node)).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(/database cannot be reached/)]);
  } finally {
    postgres.start();
  }
});

it('refuses a file changed in the bucket, names no release it could not check, and syncs the rest', async () => {
  const a = await publish('a');
  const b = await publish('b');
  await store.remote('jobs').promote(a, { gate: null });
  await start();
  const objects = openObjectStore(where.bucketUrl);
  await objects.put(`jobs/${b}/remoteEntry.js`, Buffer.from('alert(document.cookie)'));
  objects.close();
  // b is in the bucket already; a node that has not copied it yet would now find it changed.
  const other = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-node-'));
  await sync?.stop();
  fs.rmSync(node, { recursive: true, force: true });
  node = other;
  await store.remote('jobs').promote(b, { gate: null });
  const c = await publish('c');
  await start();
  expect(problems).toEqual([
    expect.stringContaining(`remoteEntry.js of release ${b} of jobs in the bucket is not the file recorded`),
  ]);
  expect(readLivePointer(jobs())).toEqual({});
  expect(fs.existsSync(jobs().release(b))).toBe(false);
  expect(fs.existsSync(jobs().release(c))).toBe(true);
  expect(readSnapshotStatus(node)).toBeUndefined();
});

/**
 * A syncer run by hand (no notifications, no polls), its problems in `problems`, and its tells of canary changes.
 * @param {{ deaf?: () => boolean }} [options] deaf: whether a tell fails now (an nginx that did not reload)
 */
function syncByHand({ deaf = () => false } = {}) {
  const told = { calls: 0 };
  const database = openDatabase(where.databaseUrl, { max: 1 });
  const objects = openObjectStore(where.bucketUrl);
  const syncer = snapshotSyncer({
    database,
    objects,
    dir: node,
    onProblem: (problem) => problems.push(problem),
    onCanaryChange: async () => {
      told.calls += 1;
      if (deaf()) throw new Error('nginx did not reload');
    },
  });
  return {
    syncer,
    objects,
    told,
    close: async () => {
      await syncer.stop();
      objects.close();
      await database.close();
    },
  };
}

const canarySettings = { stepTimeMs: 60_000, minViews: 40, maxWaitMs: 60_000 };

it('tells of a canary change again at each look until it is heard, then no more', async () => {
  const [a, b] = [await publish('a'), await publish('b')];
  await store.remote('jobs').promote(a, { gate: null });
  let failing = true;
  const byHand = syncByHand({ deaf: () => failing });
  try {
    await byHand.syncer.sync();
    expect(byHand.told.calls).toBe(0);
    await store
      .remote('jobs')
      .startCanary(b, { steps: [25, 100], settings: canarySettings, gate: null, now: Date.now });
    await byHand.syncer.sync();
    expect([readCanary(jobs()).canary?.id, byHand.told.calls]).toEqual([b, 1]);
    // Nothing changed in the store since: the look tells again all the same.
    await byHand.syncer.sync();
    expect(byHand.told.calls).toBe(2);
    failing = false;
    await byHand.syncer.sync();
    await byHand.syncer.sync();
    expect(byHand.told.calls).toBe(3);
  } finally {
    await byHand.close();
    await store.remote('jobs').abortCanary({ now: Date.now });
  }
});

it('keeps the release of a canary it ended until nginx has been told, when a prune removed it meanwhile', async () => {
  const [a, c] = [await publish('a'), await publish('c')];
  await store.remote('jobs').promote(a, { gate: null });
  await store.remote('jobs').startCanary(c, { steps: [25, 100], settings: canarySettings, gate: null, now: Date.now });
  const byHand = syncByHand({ deaf: () => true });
  try {
    await byHand.syncer.sync();
    await store.remote('jobs').abortCanary({ now: Date.now });
    expect((await store.remote('jobs').prune({ keep: 0 })).removed).toEqual([c]);
    // One look ends the canary and learns of the prune; nginx, not reloaded, still sends canary visitors to c.
    await byHand.syncer.sync();
    expect(readCanary(jobs()).canary).toBeUndefined();
    expect(fs.existsSync(path.join(jobs().release(c), 'remoteEntry.js'))).toBe(true);
  } finally {
    await byHand.close();
  }
});

it('keeps the release its copy serves live when it was pruned and the ones after it cannot be copied', async () => {
  const a = await publish('a');
  await store.remote('jobs').promote(a, { gate: null });
  const byHand = syncByHand();
  try {
    await byHand.syncer.sync();
    expect(readLivePointer(jobs())).toEqual({ id: a });
    // Two promotes of releases this node will find changed in the bucket, then a prune of a (neither live nor
    // previous any more).
    for (const name of ['b', 'c']) {
      const id = await publish(name);
      await byHand.objects.put(`jobs/${id}/remoteEntry.js`, Buffer.from('alert(document.cookie)'));
      await store.remote('jobs').promote(id, { gate: null });
    }
    expect((await store.remote('jobs').prune({ keep: 0 })).removed).toEqual([a]);
    await byHand.syncer.sync();
    expect(problems).toEqual([expect.stringContaining('in the bucket is not the file recorded')]);
    // Still serving a, whole: the copy names it live until it can name another.
    expect(readLivePointer(jobs())).toEqual({ id: a });
    expect(fs.existsSync(path.join(jobs().release(a), 'remoteEntry.js'))).toBe(true);
  } finally {
    await byHand.close();
  }
});

/** Makes `file` a folder with a file in it: every write of it fails, as on a disk that refuses it. */
const blockFile = (/** @type {string} */ file) => {
  fs.mkdirSync(file, { recursive: true });
  fs.writeFileSync(path.join(file, 'in-the-way'), '');
};

it('tells of a canary it ended on disk even when a later step of the same sync fails', async () => {
  const [a, b] = [await publish('a'), await publish('b')];
  await store.remote('jobs').promote(a, { gate: null });
  await store.remote('jobs').startCanary(b, { steps: [25, 100], settings: canarySettings, gate: null, now: Date.now });
  const byHand = syncByHand();
  try {
    await byHand.syncer.sync();
    expect([readCanary(jobs()).canary?.id, byHand.told.calls]).toEqual([b, 1]);
    await store.remote('jobs').abortCanary({ now: Date.now });
    // The ended canaries' file cannot be written: the sync ends the canary on disk, then fails.
    blockFile(jobs().canaryHistory);
    await byHand.syncer.sync();
    expect(byHand.syncer.failing()).toBe(true);
    expect([readCanary(jobs()).canary, byHand.told.calls]).toEqual([undefined, 2]);
    fs.rmSync(jobs().canaryHistory, { recursive: true });
    await byHand.syncer.sync();
    expect([byHand.syncer.failing(), byHand.told.calls]).toEqual([false, 2]);
  } finally {
    await byHand.close();
  }
});

it("syncs the other remotes, and tells of their canary's change, while one remote's sync fails at every look", async () => {
  const [a, b] = [await publish('a'), await publish('b')];
  await store.remote('jobs').promote(a, { gate: null });
  const employers = store.remote('employers');
  const e = (
    await employers.publish(fakeBuild({ remote: 'employers', buildId: 'e', chunk: 'e.0123456789.js' }), {
      commit: 'abc',
      dirty: false,
    })
  ).id;
  await employers.promote(e, { gate: null });
  // employers comes before jobs: its history cannot be written on this node.
  blockFile(storeLayout(node, 'employers').history);
  await store.remote('jobs').startCanary(b, { steps: [25, 100], settings: canarySettings, gate: null, now: Date.now });
  const byHand = syncByHand();
  try {
    await byHand.syncer.sync();
    expect(byHand.syncer.failing()).toBe(true);
    expect([readLivePointer(jobs()).id, readCanary(jobs()).canary?.id, byHand.told.calls]).toEqual([a, b, 1]);
    await store.remote('jobs').abortCanary({ now: Date.now });
    await byHand.syncer.sync();
    expect([readCanary(jobs()).canary, byHand.told.calls]).toEqual([undefined, 2]);
  } finally {
    await byHand.close();
  }
});

it('looks again soon after a look failed, not at the next poll: a release is there once storage is back', async () => {
  const a = await publish('a');
  await store.remote('jobs').promote(a, { gate: null });
  await storage.halt();
  try {
    // Polls an hour apart: only a look of its own after the failure can bring the release.
    sync = startSnapshotSync({
      ...where,
      dir: node,
      pollMs: 3_600_000,
      onProblem: (problem) => problems.push(problem),
    });
    await sync.ready;
    await until(() => problems.length > 0);
    expect(readLivePointer(jobs())).toEqual({});
  } finally {
    await storage.resume();
  }
  await until(() => readLivePointer(jobs()).id === a);
});

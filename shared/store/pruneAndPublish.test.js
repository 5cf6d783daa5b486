/** @jest-environment node */
// A prune that removes a release, and a publish of the same build (the same id) at the same moment: whatever the
// order, a release the store records has all its files. On PostgreSQL the prune deletes the release's files after
// its commit (postgres/releaseObjects.js), and each test stops the two where the other gets in: the whole publish
// before the deletes, the deletes between the publish's uploads and its record, and the record while the deletes
// run. On a folder the prune holds the remote's lock from its first read to its last delete, and a publish is
// refused meanwhile.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const S3rver = require('s3rver');
const { folderBackend } = require('./folderBackend');
const { storeLayout } = require('./layout');
const { remoteStore } = require('./remoteStore');
const { StoreBusyError } = require('./storeLock');
const { openDatabase } = require('./postgres/database');
const { openObjectStore } = require('./postgres/objectStore');
const { postgresBackend } = require('./postgres/postgresBackend');
const { startStoreServices } = require('./testing/storeServices');
const { fakeBuild, removeFakeBuilds } = require('./testing/fakeBuild');

jest.setTimeout(60_000);

const source = { commit: 'abc', dirty: false };

/**
 * A point a change stops at until it is let go: `reached` resolves once it got there (the first time).
 */
function pausePoint() {
  /** @type {() => void} */
  let arrive = () => {};
  /** @type {() => void} */
  let go = () => {};
  const reached = new Promise((resolve) => (arrive = () => resolve(undefined)));
  const gate = new Promise((resolve) => (go = () => resolve(undefined)));
  return {
    reached,
    go,
    wait: async () => {
      arrive();
      await gate;
    },
  };
}

afterEach(() => removeFakeBuilds());

describe('on PostgreSQL', () => {
  /** @type {Awaited<ReturnType<typeof startStoreServices>>} */
  let services;
  /** @type {import('./postgres/database').Database} */
  let database;
  /** @type {import('./postgres/objectStore').ObjectStore} */
  let objects;
  let stores = 0;

  beforeAll(async () => {
    services = await startStoreServices({ S3rver });
    database = openDatabase(await services.postgres.migratedDatabase(), { max: 4 });
  });
  beforeEach(() => {
    stores += 1;
    objects = openObjectStore(`s3://${services.storage.bucket}/race-${stores}`);
  });
  afterEach(() => objects.close());
  afterAll(async () => {
    await database?.close();
    await services?.stop();
  });

  /**
   * A store with two releases of `remote`, the second live: a prune keeping none removes the first.
   * @param {string} remote
   */
  async function twoReleases(remote) {
    const store = remoteStore(postgresBackend(remote, { database, objects }));
    const first = fakeBuild({ remote, buildId: 'first', chunk: 'first.0123456789.js' });
    const { id } = await store.publish(first, source);
    const second = await store.publish(fakeBuild({ remote, buildId: 'second', chunk: 'second.0123456789.js' }), source);
    await store.promote(second.id, { gate: null });
    return { store, first, id };
  }

  /**
   * A prune keeping none, stopped once it committed, before it deletes anything from the bucket.
   * @param {string} remote
   */
  function pruneStoppedAfterCommit(remote) {
    const point = pausePoint();
    const stopping = {
      ...objects,
      list: async (/** @type {string} */ under) => {
        await point.wait();
        return objects.list(under);
      },
    };
    const pruning = remoteStore(postgresBackend(remote, { database, objects: stopping })).prune({ keep: 0 });
    return { point, pruning };
  }

  /**
   * Whether the release is recorded with every file it names, as a node (or the gate) downloads them.
   * @param {import('./remoteStore').RemoteStore} store
   * @param {string} remote
   * @param {string} id
   */
  async function servable(store, remote, id) {
    expect((await store.releases()).releases.map((release) => release.id)).toContain(id);
    const download = postgresBackend(remote, { database, objects }).releaseFiles(id);
    await expect(download.then((files) => files.done())).resolves.toBeUndefined();
  }

  it('keeps the files of a release published again between the prune that removed it and its deletes', async () => {
    const { store, first, id } = await twoReleases('jobs');
    const { point, pruning } = pruneStoppedAfterCommit('jobs');
    await point.reached;
    expect((await store.releases()).releases.map((release) => release.id)).not.toContain(id);
    // Uploaded and recorded again while the prune has yet to delete its files.
    expect(await store.publish(first, source)).toEqual({ id, existed: false });
    point.go();
    expect((await pruning).removed).toEqual([id]);
    await servable(store, 'jobs', id);
  });

  it('uploads again the files a prune deleted between a publish of the same release and its record', async () => {
    const { store, first, id } = await twoReleases('candidates');
    const { point: pruned, pruning } = pruneStoppedAfterCommit('candidates');
    await pruned.reached;
    // The publish uploads the files, then stops before the transaction that records the release.
    const recording = pausePoint();
    const stopping = {
      ...database,
      /** @type {typeof database.transaction} */
      transaction: async (work, options) => {
        if (!options?.readOnly) await recording.wait();
        return database.transaction(work, options);
      },
    };
    const publishing = remoteStore(postgresBackend('candidates', { database: stopping, objects })).publish(
      first,
      source,
    );
    await recording.reached;
    pruned.go();
    expect((await pruning).removed).toEqual([id]);
    recording.go();
    expect(await publishing).toEqual({ id, existed: false });
    await servable(store, 'candidates', id);
  });

  it('keeps a publish from recording a release while a prune deletes its files, then uploads what it took', async () => {
    const { store, first, id } = await twoReleases('employers');
    // The prune stops at its first delete: it found the release unrecorded, and holds its lock.
    const deleting = pausePoint();
    const stopping = {
      ...objects,
      remove: async (/** @type {string} */ name) => {
        await deleting.wait();
        return objects.remove(name);
      },
    };
    const pruning = remoteStore(postgresBackend('employers', { database, objects: stopping })).prune({ keep: 0 });
    await deleting.reached;
    let settled = false;
    const publishing = store.publish(first, source).finally(() => {
      settled = true;
    });
    // Until the publish recorded the release, or waits for the release's lock to record it.
    const waiting = async () =>
      database.transaction(
        async (client) =>
          (await client.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")).rows.length > 0,
      );
    while (!settled && !(await waiting())) await new Promise((resolve) => setTimeout(resolve, 10));
    // Waiting for the prune, the publish holds nothing else: a canary's lease renewal of the remote (which takes its
    // row) goes through at once, not after every delete.
    const at = new Date().toISOString();
    const renewing = postgresBackend('employers', { database, objects })
      .renewLease('renew', () => ({ id, startedAt: at, epoch: 1, expiresAt: at }))
      .then(() => 'renewed');
    const held = new Promise((resolve) => setTimeout(() => resolve('held behind the publish'), 2000));
    const renewal = await Promise.race([renewing, held]);
    deleting.go();
    expect(renewal).toBe('renewed');
    await renewing;
    expect((await pruning).removed).toEqual([id]);
    expect(await publishing).toEqual({ id, existed: false });
    await servable(store, 'employers', id);
  });
});

describe('on a folder', () => {
  it('refuses a publish while a prune holds the remote, so that the prune cannot delete what it publishes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-store-'));
    try {
      const store = remoteStore(folderBackend(dir, 'jobs'));
      const first = fakeBuild({ buildId: 'first', chunk: 'first.0123456789.js' });
      const { id } = await store.publish(first, source);
      const second = await store.publish(fakeBuild({ buildId: 'second', chunk: 'second.0123456789.js' }), source);
      await store.promote(second.id, { gate: null });
      // A prune stopped after its deletes, the lock still held.
      const point = pausePoint();
      const backend = folderBackend(dir, 'jobs');
      const stopping = {
        ...backend,
        /** @type {typeof backend.change} */
        change: (label, work) =>
          backend.change(label, async (state) => {
            const done = await work(state);
            await point.wait();
            return done;
          }),
      };
      const pruning = remoteStore(stopping).prune({ keep: 0 });
      await point.reached;
      await expect(store.publish(first, source)).rejects.toThrow(StoreBusyError);
      point.go();
      expect((await pruning).removed).toEqual([id]);
      expect(await store.publish(first, source)).toEqual({ id, existed: false });
      const layout = storeLayout(dir, 'jobs');
      expect(fs.existsSync(path.join(layout.assets, 'first.0123456789.js'))).toBe(true);
      expect(await folderBackend(dir, 'jobs').read((state) => state.unusable(id))).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

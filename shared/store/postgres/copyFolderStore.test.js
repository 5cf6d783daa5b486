/** @jest-environment node */
// Moving a site's folder store into PostgreSQL and object storage: everything as it was, and safe to run again.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const S3rver = require('s3rver');
const { openFolderStore } = require('../folderStore');
const { storeLayout } = require('../layout');
const { openPostgresStore } = require('./postgresStore');
const { copyFolderRemote } = require('./copyFolderStore');
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
let dir;

beforeAll(async () => {
  services = await startStoreServices({ S3rver });
  ({ postgres, storage } = services);
});
afterAll(() => services?.stop());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-copy-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  removeFakeBuilds();
});

/** What a store says of a remote, on either backend. */
const everything = async (/** @type {import('../remoteStore').RemoteStore} */ store) => ({
  releases: (await store.releases()).releases,
  changes: await store.changes(),
  ended: await store.endedCanaries(),
});

it('copies releases, gates, what was live and the canaries that ended, as they were; a second run copies nothing', async () => {
  const folder = openFolderStore(dir).remote('jobs');
  const source = { commit: 'abc', dirty: false };
  const ids = [];
  for (const name of ['a', 'b', 'c'])
    ids.push((await folder.publish(fakeBuild({ buildId: name, chunk: `${name}.0123456789.js` }), source)).id);
  const [a, b, c] = /** @type {[string, string, string]} */ (ids);
  await folder.promote(a, { gate: null });
  await folder.promote(b, { gate: null });
  await folder.rollback();
  await folder.startCanary(c, {
    steps: [50, 100],
    settings: { stepTimeMs: 1, minViews: 1, maxWaitMs: 1 },
    gate: null,
    now: Date.now,
  });
  await folder.abortCanary({ now: Date.now });

  const store = openPostgresStore({
    databaseUrl: await postgres.migratedDatabase(),
    bucketUrl: `s3://${storage.bucket}/copy`,
  });
  const backend = store.backend('jobs');
  expect(await copyFolderRemote({ dir, remote: 'jobs', backend })).toEqual({
    releases: 3,
    gates: 3,
    history: 3,
    canaries: 1,
  });
  expect(await everything(store.remote('jobs'))).toEqual(await everything(folder));
  // The files are the release's own: the gate runs on them.
  const files = await backend.releaseFiles(b);
  expect(fs.readFileSync(path.join(files.dir, 'mf-manifest.json'), 'utf8')).toBe(
    fs.readFileSync(path.join(dir, 'jobs', b, 'mf-manifest.json'), 'utf8'),
  );
  await files.done();

  expect(await copyFolderRemote({ dir, remote: 'jobs', backend })).toEqual({
    releases: 0,
    gates: 0,
    history: 0,
    canaries: 0,
  });
  expect(await everything(store.remote('jobs'))).toEqual(await everything(folder));
  await store.close();
});

it('copies a release from before records held its integrity, which neither store makes live', async () => {
  const folder = openFolderStore(dir).remote('jobs');
  const { id } = await folder.publish(fakeBuild(), { commit: 'abc', dirty: false });
  // As a release published before builds listed their files' integrity: no list among its files, none in its record.
  const layout = storeLayout(dir, 'jobs');
  fs.chmodSync(layout.release(id), 0o755);
  fs.rmSync(path.join(layout.release(id), 'integrity.json'));
  const record = JSON.parse(fs.readFileSync(layout.record(id), 'utf8'));
  delete record.integrity;
  fs.writeFileSync(layout.record(id), JSON.stringify(record));

  const store = openPostgresStore({
    databaseUrl: await postgres.migratedDatabase(),
    bucketUrl: `s3://${storage.bucket}/before-integrity`,
  });
  expect(await copyFolderRemote({ dir, remote: 'jobs', backend: store.backend('jobs') })).toMatchObject({
    releases: 1,
  });
  await expect(store.remote('jobs').promote(id, { gate: null })).rejects.toThrow(
    `release ${id} of jobs cannot be served: its record lists no file's integrity`,
  );
  await expect(folder.promote(id, { gate: null })).rejects.toThrow(
    `release ${id} of jobs cannot be served: ${layout.release(id)} lists no file's integrity: integrity.json is missing`,
  );
  await store.close();
});

it('refuses to copy a store whose canary runs', async () => {
  const folder = openFolderStore(dir).remote('jobs');
  const source = { commit: 'abc', dirty: false };
  const a = (await folder.publish(fakeBuild({ buildId: 'a', chunk: 'a.0123456789.js' }), source)).id;
  const b = (await folder.publish(fakeBuild({ buildId: 'b', chunk: 'b.0123456789.js' }), source)).id;
  await folder.promote(a, { gate: null });
  await folder.startCanary(b, {
    steps: [50, 100],
    settings: { stepTimeMs: 1, minViews: 1, maxWaitMs: 1 },
    gate: null,
    now: Date.now,
  });
  const store = openPostgresStore({
    databaseUrl: await postgres.migratedDatabase(),
    bucketUrl: `s3://${storage.bucket}/running`,
  });
  await expect(copyFolderRemote({ dir, remote: 'jobs', backend: store.backend('jobs') })).rejects.toThrow(
    /a canary of jobs is running in .*: end it before copying the store/,
  );
  expect((await store.remote('jobs').releases()).releases).toEqual([]);
  await store.close();
});

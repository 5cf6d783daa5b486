/** @jest-environment node */
// A command that stops while it holds the lock every commit takes its revision under (a paused process, a link gone
// quiet) must not hold the other remotes' changes for longer than STALLED_COMMIT_MS; its own change must then count
// for nothing.
const S3rver = require('s3rver');
const { remoteStore } = require('../remoteStore');
const { StoreUnavailable } = require('../storeRefusal');
const { openDatabase } = require('./database');
const { openObjectStore } = require('./objectStore');
const { openPostgresStore } = require('./postgresStore');
const { postgresBackend, STALLED_COMMIT_MS } = require('./postgresBackend');
const { startStoreServices } = require('../testing/storeServices');
const { fakeBuild, removeFakeBuilds } = require('../testing/fakeBuild');
const { heldByDatabase } = require('../testing/nodeCopy');

jest.setTimeout(60_000);

/** The statement a change takes its store revision with, right after the lock. */
const TAKES_REVISION = /nextval\('store_revision'\)/;

/** @type {Awaited<ReturnType<typeof startStoreServices>>} */
let services;

beforeAll(async () => {
  services = await startStoreServices({ S3rver });
});
afterAll(async () => {
  removeFakeBuilds();
  await services?.stop();
});

it("lets the other remotes' changes through once a command stalled holding the revision lock, and drops its change", async () => {
  const where = {
    databaseUrl: await services.postgres.migratedDatabase(),
    bucketUrl: `s3://${services.storage.bucket}/s`,
  };
  const store = openPostgresStore(where);
  /** @param {'jobs' | 'candidates'} remote @param {string} name */
  const publish = async (remote, name) =>
    (
      await store
        .remote(remote)
        .publish(fakeBuild({ remote, buildId: `${remote}-${name}` }), { commit: null, dirty: false })
    ).id;
  const jobsA = await publish('jobs', 'a');
  const jobsB = await publish('jobs', 'b');
  const candidates = await publish('candidates', 'a');
  await store.remote('jobs').promote(jobsA, { gate: null });

  // jobs' command stops right after it took the lock: its next statement waits until the test lets it go.
  /** @type {() => void} */
  let letGo = () => {};
  const goes = new Promise((resolve) => (letGo = () => resolve(undefined)));
  /** @type {() => void} */
  let holds = () => {};
  const held = new Promise((resolve) => (holds = () => resolve(undefined)));
  const database = openDatabase(where.databaseUrl, { max: 2 });
  const objects = openObjectStore(where.bucketUrl);
  const stalling = {
    ...database,
    /** @type {typeof database.transaction} */
    transaction: (work, options) =>
      database.transaction(
        (client) =>
          work(
            /** @type {import('pg').PoolClient} */ (
              new Proxy(client, {
                get(target, key) {
                  if (key !== 'query') return Reflect.get(target, key);
                  return async (/** @type {any[]} */ ...args) => {
                    if (typeof args[0] === 'string' && TAKES_REVISION.test(args[0])) {
                      holds();
                      await goes;
                    }
                    return /** @type {any} */ (target.query)(...args);
                  };
                },
              })
            ),
          ),
        options,
      ),
  };
  const stalled = remoteStore(postgresBackend('jobs', { database: stalling, objects }))
    .promote(jobsB, { gate: null })
    .then(
      () => 'made',
      (error) => error,
    );
  await held;

  const started = Date.now();
  await store.remote('candidates').promote(candidates, { gate: null });
  const waited = Date.now() - started;
  letGo();

  expect(await stalled).toBeInstanceOf(StoreUnavailable);
  // From the stall, not from some later timeout (the test's own is 60 s).
  expect(waited).toBeGreaterThanOrEqual(STALLED_COMMIT_MS - 1000);
  expect(waited).toBeLessThan(STALLED_COMMIT_MS + 15_000);
  const now = await heldByDatabase(database);
  expect([now.jobs?.live, now.candidates?.live]).toEqual([jobsA, candidates]);
  expect((await store.remote('jobs').audit()).map((entry) => entry.action)).toEqual([
    `release jobs ${jobsA}`,
    `release jobs ${jobsB}`,
    `promote jobs ${jobsA}`,
  ]);

  objects.close();
  await database.close();
  await store.close();
});

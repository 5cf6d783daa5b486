/** @jest-environment node */
// The store as the release commands use it, the same rules on both backends: the folder, and PostgreSQL with object
// storage (a real server and s3rver, started here).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const S3rver = require('s3rver');
const { openFolderStore } = require('./folderStore');
const { openPostgresStore } = require('./postgres/postgresStore');
const { CanaryGone } = require('./canaryChanges');
const { readCanary } = require('./canaryInStore');
const { readAudit } = require('./audit');
const { storeLayout } = require('./layout');
const { StoreRefusal, StoreUnavailable } = require('./storeRefusal');
const { startStoreServices } = require('./testing/storeServices');
const { fakeBuild, removeFakeBuilds } = require('./testing/fakeBuild');

jest.setTimeout(60_000);

const source = { commit: 'abc', dirty: false };
const settings = { stepTimeMs: 60_000, minViews: 40, maxWaitMs: 60_000 };
const by = `${os.userInfo().username}@${os.hostname()}`;

/** @type {Awaited<ReturnType<typeof startStoreServices>>} */
let services;
/** @type {typeof services.postgres} */
let postgres;
/** @type {typeof services.storage} */
let storage;
let databases = 0;

beforeAll(async () => {
  services = await startStoreServices({ S3rver });
  ({ postgres, storage } = services);
});
afterAll(() => services?.stop());

/**
 * A new, empty store on each backend, and what a test needs to look under it. Each `open` is another machine's
 * command on the same store.
 * @typedef {{ open: (options?: { orphanAgeMs?: number }) => { remote: (name: string,
 *   as?: { actor?: import('./actor').Actor }) => import('./remoteStore').RemoteStore,
 *   close?: () => Promise<void> }, files: (id: string) => Promise<string[]>, orphan: (id: string) => Promise<void>,
 *   served: () => Promise<unknown>, dispose: () => Promise<void> }} TestStore
 *   served: what serves the store reads of jobs' canary, and where the store's changes are counted
 */
const backends = {
  /** @returns {Promise<TestStore>} */
  folder: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-store-'));
    return {
      open: () => openFolderStore(dir),
      files: async (id) =>
        fs.existsSync(path.join(dir, 'jobs', id)) ? fs.readdirSync(path.join(dir, 'jobs', id)) : [],
      orphan: async (id) => void fs.mkdirSync(path.join(dir, 'jobs', '.incoming', `${id}-x`), { recursive: true }),
      served: async () => {
        const layout = storeLayout(dir, 'jobs');
        return {
          canary: readCanary(layout),
          link: fs.readlinkSync(layout.canary),
          audit: await readAudit(layout.audit),
        };
      },
      dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
  /** @returns {Promise<TestStore>} */
  postgres: async () => {
    databases += 1;
    const name = `store_${databases}`;
    const databaseUrl = await postgres.migratedDatabase();
    const bucketUrl = `s3://${storage.bucket}/${name}`;
    /** @type {ReturnType<typeof openPostgresStore>[]} */
    const opened = [];
    const objects = require('./postgres/objectStore').openObjectStore(bucketUrl);
    return {
      open: ({ orphanAgeMs } = {}) => {
        const store = openPostgresStore({ databaseUrl, bucketUrl, orphanAgeMs });
        opened.push(store);
        return store;
      },
      files: async (id) => (await objects.list(`jobs/${id}/`)).map((object) => object.name),
      orphan: async (id) => objects.put(`jobs/${id}/mf-manifest.json`, Buffer.from('{}')),
      served: async () => {
        const client = new Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          const query = async (/** @type {string} */ sql) => (await client.query(sql)).rows;
          return {
            canary: await query("SELECT state FROM canaries WHERE remote = 'jobs'"),
            revision: await query('SELECT max(revision) FROM remotes'),
            audit: await query('SELECT count(*) FROM audit'),
          };
        } finally {
          await client.end();
        }
      },
      dispose: async () => {
        await Promise.all(opened.map((store) => store.close()));
        objects.close();
      },
    };
  },
};

describe.each(Object.entries(backends))('the store on the %s backend', (_, create) => {
  /** @type {TestStore} */
  let testStore;
  /** @type {import('./remoteStore').RemoteStore} */
  let jobs;
  beforeEach(async () => {
    testStore = await create();
    jobs = testStore.open().remote('jobs');
  });
  afterEach(async () => {
    await testStore.dispose();
    removeFakeBuilds();
  });

  /** @param {string} buildId */
  const publish = async (buildId) =>
    (await jobs.publish(fakeBuild({ buildId, chunk: `${buildId}.0123456789.js` }), source)).id;
  const failing = async () => ({
    at: new Date().toISOString(),
    passed: false,
    checks: [{ name: 'hydration', ok: false, detail: 'boom' }],
  });

  it('publishes a build once: the same files are the same release', async () => {
    const build = fakeBuild({ buildId: 'a', chunk: 'a.0123456789.js' });
    const first = await jobs.publish(build, source);
    expect(await jobs.publish(build, source)).toEqual({ id: first.id, existed: true });
    expect(first.existed).toBe(false);
    expect((await jobs.releases()).releases).toEqual([expect.objectContaining({ id: first.id, by, commit: 'abc' })]);
    expect(await testStore.files(first.id)).not.toEqual([]);
  });

  it('refuses a build of another remote, and records nothing', async () => {
    await expect(jobs.publish(fakeBuild({ remote: 'candidates', buildId: 'a' }), source)).rejects.toThrow(
      /is a build of "candidates", not of "jobs"/,
    );
    expect((await jobs.releases()).releases).toEqual([]);
  });

  it('promotes, rolls back, and records who made each change', async () => {
    const a = await publish('a');
    const b = await publish('b');
    expect(await jobs.promote(a, { gate: null })).toMatchObject({ changed: true, from: undefined });
    expect(await jobs.promote(b, { gate: null })).toMatchObject({ changed: true, from: a });
    expect(await jobs.promote(b, { gate: null })).toMatchObject({ changed: false });
    expect(await jobs.rollback()).toEqual({ id: a, from: b });
    const { releases } = await jobs.releases();
    expect(releases.map((release) => [release.id, release.live, release.previous])).toEqual([
      [a, true, false],
      [b, false, false],
    ]);
    expect((await jobs.changes()).map((change) => [change.action, change.id, change.by])).toEqual([
      ['promote', a, by],
      ['promote', b, by],
      ['rollback', a, by],
    ]);
    await expect(jobs.rollback()).rejects.toThrow(/no release was live before it/);
  });

  it('audits every change with the actor that made it, and nothing that changed nothing', async () => {
    /** @type {import('./actor').Actor} */
    const team = {
      by: 'token 0123abcd (team jobs)',
      kind: 'token',
      token: '0123abcd',
      team: 'jobs',
      network: '10.1.2.3',
    };
    const asTeam = testStore.open().remote('jobs', { actor: team });
    const a = (await asTeam.publish(fakeBuild({ buildId: 'a', chunk: 'a.0123456789.js' }), source)).id;
    await asTeam.publish(fakeBuild({ buildId: 'a', chunk: 'a.0123456789.js' }), source);
    await asTeam.promote(a, { gate: null });
    await asTeam.promote(a, { gate: null });
    await expect(asTeam.rollback()).rejects.toThrow(/no release was live before it/);
    const b = await publish('b');
    await jobs.promote(b, { gate: null });
    const audit = await jobs.audit();
    expect(audit.map((entry) => [entry.action, entry.actor])).toEqual([
      [`release jobs ${a}`, team],
      // The second promote wrote its gate's result again ("skipped"): a change.
      [`promote jobs ${a}`, team],
      [`promote jobs ${a}`, team],
      [`release jobs ${b}`, { by, kind: 'machine' }],
      [`promote jobs ${b}`, { by, kind: 'machine' }],
    ]);
    for (const entry of audit) expect(Date.parse(entry.at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await jobs.releases()).releases.map((release) => release.by)).toEqual([team.by, by]);
    expect((await jobs.changes()).map((change) => change.by)).toEqual([team.by, by]);
  });

  it('records a failed gate, changes nothing, and previews the release only when allowed', async () => {
    const a = await publish('a');
    await expect(jobs.promote(a, { gate: failing })).rejects.toThrow(
      /failed the gate; nothing changed[^]*hydration: boom/,
    );
    const { releases } = await jobs.releases();
    expect(releases[0]).toMatchObject({ id: a, live: false, gate: { passed: false } });
    await expect(jobs.preview(a, { allowFailed: false })).rejects.toThrow(/--allow-failed/);
    expect(await jobs.preview(a, { allowFailed: true })).toEqual({
      failed: true,
      mark: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it('runs the gate on the release as published', async () => {
    const a = await publish('a');
    /** @type {string[]} */
    let seen = [];
    await jobs.promote(a, {
      gate: async (dir) => {
        seen = fs.readdirSync(dir).sort();
        return { at: new Date().toISOString(), passed: true, checks: [] };
      },
    });
    expect(seen).toEqual(expect.arrayContaining(['mf-manifest.json', 'remoteEntry.js', 'ssr']));
  });

  it('refuses a release that is not there', async () => {
    await expect(jobs.promote('0123456789abcdef', { gate: null })).rejects.toThrow(
      /there is no release 0123456789abcdef of jobs/,
    );
  });

  it('lets one of two promotes from two machines through; the other is refused naming it', async () => {
    const a = await publish('a');
    const b = await publish('b');
    const other = testStore.open().remote('jobs');
    /** @type {() => void} */
    let gateStarted = () => {};
    const started = new Promise((resolve) => (gateStarted = () => resolve(undefined)));
    /** @type {() => void} */
    let quickEnded = () => {};
    const ended = new Promise((resolve) => (quickEnded = () => resolve(undefined)));
    // The slow promote's gate runs until the quick one ended, whatever the machine's speed: both read the same
    // revision, and the quick one commits first.
    const slow = jobs.promote(a, {
      gate: async () => {
        gateStarted();
        await ended;
        return { at: new Date().toISOString(), passed: true, checks: [] };
      },
    });
    await started;
    const quick = other.promote(b, { gate: null });
    void quick.then(quickEnded, quickEnded);
    const outcomes = await Promise.allSettled([slow, quick]);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(1);
    const reason = /** @type {PromiseRejectedResult} */ (refused[0]).reason;
    expect(reason).toBeInstanceOf(StoreRefusal);
    const winner = outcomes[0]?.status === 'fulfilled' ? a : b;
    expect(reason.message).toContain(`promote jobs ${winner}`);
    expect((await jobs.changes()).map((change) => change.id)).toEqual([winner]);
  });

  it('prunes old releases with their files, and never the live one', async () => {
    const ids = [];
    for (const name of ['a', 'b', 'c', 'd']) ids.push(await publish(name));
    await jobs.promote(/** @type {string} */ (ids[0]), { gate: null });
    const { removed, kept } = await jobs.prune({ keep: 1 });
    expect(removed.sort()).toEqual([ids[1], ids[2]].sort());
    expect(kept.sort()).toEqual([ids[0], ids[3]].sort());
    expect(await testStore.files(/** @type {string} */ (ids[1]))).toEqual([]);
    expect(await testStore.files(/** @type {string} */ (ids[0]))).not.toEqual([]);
  });

  it('runs a canary to its promote, under the lease of the command that started it', async () => {
    const a = await publish('a');
    const b = await publish('b');
    await jobs.promote(a, { gate: null });
    const now = Date.now();
    let mine = await jobs.startCanary(b, { steps: [25, 100], settings, gate: null, now: () => now });
    await expect(jobs.promote(b, { gate: null })).rejects.toThrow(/a canary of jobs is running/);
    const passed = /** @type {const} */ ({ share: 25, verdict: 'pass', reason: 'ok', at: new Date(now).toISOString() });
    mine = await jobs.advanceCanary(mine, passed, 100, now + 1000);
    expect((await jobs.canary()).canary).toMatchObject({ id: b, share: 100 });
    const ended = await jobs.finishCanary(mine, {
      outcome: 'promoted',
      reason: 'all steps passed',
      last: undefined,
      at: now + 2000,
    });
    expect(ended).toMatchObject({ id: b, outcome: 'promoted', by });
    expect(await jobs.canary()).toEqual({});
    expect(await jobs.endedCanaries()).toEqual([ended]);
    expect((await jobs.releases()).releases.find((release) => release.live)?.id).toBe(b);
  });

  it('lets another command take over a canary whose lease ran out; the first then changes nothing', async () => {
    const a = await publish('a');
    const b = await publish('b');
    await jobs.promote(a, { gate: null });
    const start = Date.now() - 60_000;
    const mine = await jobs.startCanary(b, {
      steps: [25, 100],
      settings,
      gate: null,
      now: () => start,
      leaseTtlMs: 1000,
    });
    const other = testStore.open().remote('jobs');
    // The other's "process" must look alive on this machine: only the lease lets it in.
    const theirs = await other.takeOverCanary({ now: () => start + 5000 });
    expect(theirs.lease?.epoch).toBe(2);
    await expect(jobs.renewLease(mine, Date.now())).rejects.toThrow(CanaryGone);
    await expect(
      jobs.finishCanary(mine, { outcome: 'rolled back', reason: 'x', last: undefined, at: Date.now() }),
    ).rejects.toThrow(/taken over by pid/);
    expect((await jobs.canary()).canary).toMatchObject({ id: b, lease: { epoch: 2 } });
    expect(await jobs.endedCanaries()).toEqual([]);
  });

  it("renews a canary's lease without changing the store, and keeps a take-over out until the renewal runs out", async () => {
    const a = await publish('a');
    const b = await publish('b');
    await jobs.promote(a, { gate: null });
    const start = Date.now();
    let mine = await jobs.startCanary(b, {
      steps: [25, 100],
      settings,
      gate: null,
      now: () => start,
      leaseTtlMs: 1000,
    });
    const before = await testStore.served();
    for (let renewal = 1; renewal <= 5; renewal += 1) mine = await jobs.renewLease(mine, start + renewal * 500);
    // No audit line, no revision, nothing a server or a node reads: a renewal is no change.
    expect(await testStore.served()).toEqual(before);
    const expiresAt = new Date(start + 3500).toISOString();
    expect(mine.lease).toEqual({ epoch: 1, ttlMs: 1000, expiresAt });
    expect((await jobs.canary()).canary?.lease).toEqual(mine.lease);

    const other = testStore.open().remote('jobs');
    await expect(other.takeOverCanary({ now: () => start + 3499 })).rejects.toThrow(
      `its lease runs until ${expiresAt}`,
    );
    const theirs = await other.takeOverCanary({ now: () => start + 3500 });
    // The take-over's lease is its own: the first command's renewal renews nothing of it, and it can renew no more.
    expect(theirs.lease).toEqual({ epoch: 2, ttlMs: 1000, expiresAt: new Date(start + 4500).toISOString() });
    expect((await jobs.canary()).canary?.lease).toEqual(theirs.lease);
    await expect(jobs.renewLease(mine, start + 3600)).rejects.toThrow(/taken over by pid/);
    await expect(other.renewLease(theirs, start + 4000)).resolves.toMatchObject({ lease: { epoch: 2 } });
  });

  it('refuses a canary whose lease is shorter than a second or longer than five minutes, before its gate', async () => {
    const a = await publish('a');
    const b = await publish('b');
    await jobs.promote(a, { gate: null });
    const gate = jest.fn(failing);
    for (const leaseTtlMs of [999, 5 * 60_000 + 1, Number.MAX_SAFE_INTEGER]) {
      await expect(
        jobs.startCanary(b, { steps: [25, 100], settings, gate, now: Date.now, leaseTtlMs }),
      ).rejects.toThrow("no canary started: a canary's lease lasts from 1 s to 5 min");
    }
    expect(gate).not.toHaveBeenCalled();
    expect(await jobs.canary()).toEqual({});
  });

  it('aborts a running canary: everyone is on live, and the abort is recorded', async () => {
    const a = await publish('a');
    const b = await publish('b');
    await jobs.promote(a, { gate: null });
    await jobs.startCanary(b, { steps: [25, 100], settings, gate: null, now: Date.now });
    expect(await jobs.abortCanary({ now: Date.now })).toMatchObject({ id: b, outcome: 'aborted', by });
    expect(await jobs.canary()).toEqual({});
    await expect(jobs.abortCanary({ now: Date.now })).rejects.toThrow(/no canary of jobs is running/);
  });
});

describe('the store on PostgreSQL', () => {
  it('refuses with one line, changing nothing, while its database is down; and goes on once it is back', async () => {
    const store = await backends.postgres();
    const jobs = store.open().remote('jobs');
    const a = (await jobs.publish(fakeBuild({ buildId: 'a', chunk: 'a.0123456789.js' }), source)).id;
    postgres.stop();
    try {
      const refusal = await jobs.promote(a, { gate: null }).catch((error) => error);
      expect(refusal).toBeInstanceOf(StoreUnavailable);
      expect(refusal.message).toMatch(/^the store's database cannot be reached \([^)]+\); nothing was changed$/);
    } finally {
      postgres.start();
    }
    expect(await jobs.promote(a, { gate: null })).toMatchObject({ changed: true });
    await store.dispose();
  });

  it('keeps the audit append-only for every role, its owner too', async () => {
    const databaseUrl = await postgres.migratedDatabase();
    const store = openPostgresStore({ databaseUrl, bucketUrl: `s3://${storage.bucket}/append-only` });
    await store.remote('jobs').publish(fakeBuild({ buildId: 'a', chunk: 'a.0123456789.js' }), source);
    const owner = new Client({ connectionString: databaseUrl });
    await owner.connect();
    try {
      for (const sql of ["UPDATE audit SET by = 'someone else'", 'DELETE FROM audit', 'TRUNCATE audit']) {
        await expect(owner.query(sql)).rejects.toThrow(/the audit is append-only: (UPDATE|DELETE|TRUNCATE) refused/);
      }
      expect((await owner.query('SELECT by FROM audit')).rows).toEqual([{ by }]);
    } finally {
      await owner.end();
      await store.close();
      removeFakeBuilds();
    }
  });

  it('refuses a database whose schema is not this version’s, naming the command that migrates it', async () => {
    const admin = new Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE unmigrated');
    await admin.end();
    const store = openPostgresStore({
      databaseUrl: postgres.url.replace(/\/postgres$/, '/unmigrated'),
      bucketUrl: `s3://${storage.bucket}/unmigrated`,
    });
    await expect(store.remote('jobs').releases()).rejects.toThrow(
      /lacks this version's schema \(1764300000000_release-store, 1764900000000_field-data, 1765100000000_audit-actors, 1765100000001_deploy-tokens, 1765200000000_canary-leases\): run npm run store -- migrate/,
    );
    await store.close();
  });

  it('removes files no release names once they are older than a publish can take, and not before', async () => {
    const store = await backends.postgres();
    await store.orphan('fedcba9876543210');
    await store.open().remote('jobs').prune({ keep: 1 });
    expect(await store.files('fedcba9876543210')).not.toEqual([]);
    await store.open({ orphanAgeMs: 0 }).remote('jobs').prune({ keep: 1 });
    expect(await store.files('fedcba9876543210')).toEqual([]);
    await store.dispose();
  });
});

/** @jest-environment node */
// The deploy API's database role: a change of the store goes through, the tokens are read-only to it, and the audit
// takes new lines and nothing else. Its reads of the field data, through the servers' readers, are checked where
// those are in reach (shared/deploy/databaseRole.test.js).
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { Client } = require('pg');
const { migrateInChild, startPostgres } = require('../testing/postgres');
const { neededMigrations } = require('./migrate');
const { grantDeployApi } = require('./deployRole');
const { openPostgresStore } = require('./postgresStore');

jest.setTimeout(60_000);

/** @type {Awaited<ReturnType<typeof startPostgres>>} */
let postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

it('may change the store and append to the audit, and may not touch the tokens or rewrite the audit', async () => {
  const databaseUrl = await postgres.migratedDatabase('role');
  const owner = new Client({ connectionString: databaseUrl });
  await owner.connect();
  await owner.query('CREATE ROLE deploy_api LOGIN');
  await owner.query(
    "INSERT INTO deploy_tokens VALUES ('0123456789ab', 'jobs', '{publish}', 't', now(), now(), NULL, 'op', 'h')",
  );
  await owner.end();
  await grantDeployApi(databaseUrl, 'deploy_api');

  const apiUrl = databaseUrl.replace('postgres@', 'deploy_api@');
  // The store as the API opens it, under that role: it checks the schema, reads and changes.
  const store = openPostgresStore({ databaseUrl: apiUrl, bucketUrl: 's3://unused/role' });
  expect(await store.remote('jobs').releases()).toEqual({ releases: [], problem: undefined });
  await store.close();
  const api = new Client({ connectionString: apiUrl });
  await api.connect();
  try {
    await api.query("INSERT INTO remotes (remote) VALUES ('jobs')");
    await api.query("UPDATE remotes SET revision = nextval('store_revision') WHERE remote = 'jobs'");
    await api.query("INSERT INTO audit (remote, action, by, revision) VALUES ('jobs', 'promote jobs x', 'token t', 1)");
    expect((await api.query('SELECT count(*)::int AS n FROM audit')).rows).toEqual([{ n: 1 }]);
    expect((await api.query('SELECT id FROM deploy_tokens')).rows).toEqual([{ id: '0123456789ab' }]);
    for (const sql of [
      "UPDATE audit SET by = 'someone else'",
      'DELETE FROM audit',
      'TRUNCATE audit',
      'UPDATE deploy_tokens SET revoked = NULL',
      "INSERT INTO deploy_tokens VALUES ('ffffffffffff', 'jobs', '{promote}', 't', now(), now(), NULL, 'x', 'h')",
      'DELETE FROM deploy_tokens',
    ]) {
      await expect(api.query(sql)).rejects.toThrow(/permission denied/);
    }
  } finally {
    await api.end();
  }
});

it('gives a role granted the canaries before canary_leases existed the same rights on it, and no other role', async () => {
  const admin = new Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE before_leases');
  await admin.end();
  const databaseUrl = postgres.url.replace(/\/postgres$/, '/before_leases');
  // The schema as it was before the canary_leases migration: every migration but the ones from it on.
  const before = neededMigrations().indexOf('1765200000000_canary-leases');
  const script =
    "import('node-pg-migrate').then(({ runner }) => runner({ databaseUrl: process.argv[1], dir: process.argv[2], " +
    "migrationsTable: 'pgmigrations', direction: 'up', count: Number(process.argv[3]), log: () => {} }))" +
    '.catch((error) => { console.error(error.message); process.exit(1); })';
  const migrations = path.join(__dirname, 'migrations');
  const older = spawnSync(process.execPath, ['-e', script, databaseUrl, migrations, String(before)], {
    encoding: 'utf8',
  });
  expect([older.status, older.stderr]).toEqual([0, '']);
  const owner = new Client({ connectionString: databaseUrl });
  await owner.connect();
  await owner.query('CREATE ROLE granted_before LOGIN');
  await owner.query('CREATE ROLE never_granted LOGIN');
  await owner.query('GRANT SELECT, INSERT, UPDATE, DELETE ON canaries TO granted_before');
  await owner.end();

  migrateInChild(databaseUrl);

  /** @param {string} role @param {string[]} statements */
  const as = async (role, statements) => {
    const client = new Client({ connectionString: databaseUrl.replace('postgres@', `${role}@`) });
    await client.connect();
    try {
      for (const sql of statements) await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const renewal = JSON.stringify({ id: 'x', startedAt: 'y', epoch: 1, expiresAt: 'z' });
  await as('granted_before', [
    `INSERT INTO canary_leases (remote, renewal) VALUES ('jobs', '${renewal}')`,
    `UPDATE canary_leases SET renewal = '${renewal}' WHERE remote = 'jobs'`,
    'SELECT renewal FROM canary_leases',
    'DELETE FROM canary_leases',
  ]);
  await expect(as('never_granted', ['SELECT renewal FROM canary_leases'])).rejects.toThrow(/permission denied/);
});

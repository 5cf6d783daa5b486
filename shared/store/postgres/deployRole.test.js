/** @jest-environment node */
// The deploy API's database role: a change of the store goes through, the tokens are read-only to it, and the audit
// takes new lines and nothing else. Its reads of the field data, through the servers' readers, are checked where
// those are in reach (shared/deploy/databaseRole.test.js).
const { Client } = require('pg');
const { startPostgres } = require('../testing/postgres');
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

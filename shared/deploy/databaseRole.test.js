/** @jest-environment node */
// The deploy API's database role (`grant-deploy-api`, @nativegtm/store/postgres/deployRole) reads the field data a
// canary it drives is judged on, as the canary's status and its steps read it: every node's records, in partitions
// the servers made before the grant and after it, and the writers' drops. The store's own tables are checked beside
// the role (shared/store/postgres/deployRole.test.js).
const { openFieldRecords } = require('@nativegtm/server/fieldData/fieldRecords');
const { createPostgresRecordWriter } = require('@nativegtm/server/fieldData/postgresRecords');
const { openDatabase } = require('@nativegtm/store/postgres/database');
const { grantDeployApi } = require('@nativegtm/store/postgres/deployRole');
const { startPostgres } = require('@nativegtm/store/testing/postgres');
const { sidesInStore } = require('@nativegtm/tools/canary/sides');

jest.setTimeout(60_000);

const DAY = 86_400_000;
const TODAY = Date.UTC(2026, 11, 2, 12, 0);
const YESTERDAY = TODAY - DAY;
const CANARY = 'release-b@2026-12-01T12:00:00.000Z';

/** @type {Awaited<ReturnType<typeof startPostgres>>} */
let postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.remove());

/**
 * A view of the jobs canary, signed, as a server records it.
 * @param {number} t
 * @param {string} doc
 */
const canaryView = (t, doc) =>
  /** @type {import('@nativegtm/server/fieldData/recordStore').FieldRecord} */ ({
    t,
    type: 'view',
    route: '/jobs',
    remote: 'jobs',
    release: 'b',
    device: 'desktop',
    nav: 'document',
    signed: true,
    doc,
    seq: 0,
    cohort: 'canary:jobs',
    canary: CANARY,
    net: `net-${doc}`,
  });

/**
 * Runs `sql` on the database at `url`, as the role the URL names.
 * @param {string} url
 * @param {string} sql
 * @param {unknown[]} [values]
 */
async function run(url, sql, values = []) {
  const database = openDatabase(url);
  try {
    await database.transaction((client) => client.query(sql, values));
  } finally {
    await database.close();
  }
}

it("reads a canary's field data, in partitions made before and after the grant, and the writers' drops, and writes none", async () => {
  const databaseUrl = await postgres.migratedDatabase('role');
  const apiUrl = databaseUrl.replace('postgres@', 'deploy_api@');
  await run(databaseUrl, 'CREATE ROLE deploy_api LOGIN');
  // The servers write as the store's owner, each making its day's partition before that day's first records.
  const written = openDatabase(databaseUrl);
  const writer = createPostgresRecordWriter({ database: written, now: () => YESTERDAY });
  writer.write([canaryView(YESTERDAY, 'a')]);
  await writer.flush();
  await grantDeployApi(databaseUrl, 'deploy_api');
  // Today's partition is made after the grant, as every later day's is.
  writer.write([canaryView(TODAY, 'b')]);
  await writer.flush();
  await written.close();
  await run(databaseUrl, "INSERT INTO field_drops (writer, first, latest, records) VALUES ('node-1', $1, $1, 3)", [
    new Date(TODAY + 60_000),
  ]);

  // The field data as the deploy API opens it, under its role, read as a canary step's sides are.
  const records = openFieldRecords({ dir: '/nonexistent', databaseUrl: apiUrl });
  try {
    const counting = { canary: CANARY, maxNetworkShare: 1 };
    const bothDays = await sidesInStore(records, 'jobs', { since: YESTERDAY - 1000, until: TODAY + 1000 }, counting);
    expect([bothDays.canary.views, bothDays.canary.networks, bothDays.dropped]).toEqual([2, 2, false]);
    const withDrop = await sidesInStore(records, 'jobs', { since: TODAY, until: TODAY + 120_000 }, counting);
    expect([withDrop.canary.views, withDrop.dropped]).toEqual([1, true]);
  } finally {
    await records.close();
  }
  // Read only, and through the table: only the servers write field data.
  for (const sql of [
    "INSERT INTO field_records (at, record) VALUES (now(), '{}')",
    'DELETE FROM field_records',
    "INSERT INTO field_drops VALUES ('x', now(), now(), 1)",
    'DELETE FROM field_drops',
    'SELECT * FROM field_records_20261202',
  ]) {
    await expect(run(apiUrl, sql)).rejects.toThrow(/permission denied/);
  }
});

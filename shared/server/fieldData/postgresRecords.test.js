// Field data on a real PostgreSQL (Debian's, started in a scratch folder), at the store's schema.
const { startPostgres } = require('@nativegtm/store/testing/postgres');
const { openDatabase } = require('@nativegtm/store/postgres/database');
const { StoreUnavailable } = require('@nativegtm/store/storeRefusal');
const { recordMaker } = require('./recordFixtures');
const {
  createPostgresRecordWriter,
  readPostgresRecords,
  droppedInPostgres,
  dropPastDays,
} = require('./postgresRecords');
const { openFieldRecords } = require('./fieldRecords');

jest.setTimeout(60_000);

/** @typedef {import('./recordStore').FieldRecord} FieldRecord */

const DAY = 86_400_000;
const AT = Date.UTC(2026, 11, 1, 12, 0);
const { view, vital } = recordMaker({ t: AT });

/** @type {Awaited<ReturnType<typeof startPostgres>>} */
let postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.remove());

/** A database at the store's schema, and what is opened on it, closed after the test. */
async function fresh() {
  const databaseUrl = await postgres.migratedDatabase('field');
  const database = openDatabase(databaseUrl);
  opened.push(database);
  return { databaseUrl, database };
}
/** @type {{ close: () => Promise<void> }[]} */
let opened = [];
afterEach(async () => {
  await Promise.all(opened.map((database) => database.close()));
  opened = [];
});

/** @param {AsyncIterable<FieldRecord>} records */
async function all(records) {
  /** @type {FieldRecord[]} */
  const read = [];
  for await (const record of records) read.push(record);
  return read;
}

/** Counts what a writer reports to the metrics. */
function metricsStub() {
  const counted = { written: 0, dropped: 0 };
  /** @type {() => number} */
  let buffered = () => 0;
  return {
    counted,
    buffered: () => buffered(),
    metrics: {
      /** @param {'written' | 'dropped'} outcome @param {number} count */
      fieldRecords: (outcome, count) => {
        counted[outcome] += count;
      },
      /** @param {() => number} read */
      watchBufferedRecords: (read) => {
        buffered = read;
      },
    },
  };
}

it("reads every writer's records of a window, in the order received, exact to the millisecond", async () => {
  const { database } = await fresh();
  const first = createPostgresRecordWriter({ database, now: () => AT });
  const second = createPostgresRecordWriter({ database, now: () => AT });
  first.write([view({ t: AT - 1 }), view({ t: AT, route: '/' })]);
  second.write([vital('LCP', 2400, { t: AT + 5 }), view({ t: AT + 10 })]);
  await Promise.all([first.flush(), second.flush()]);
  const read = await all(readPostgresRecords(database, { since: AT, until: AT + 5 }));
  expect(read.map((record) => [record.t, record.type])).toEqual([
    [AT, 'view'],
    [AT + 5, 'vital'],
  ]);
  expect(read[1]).toEqual(vital('LCP', 2400, { t: AT + 5 }));
});

it('sends many records in batches, and pages a reader through them', async () => {
  const { database } = await fresh();
  const { metrics, counted } = metricsStub();
  const writer = createPostgresRecordWriter({ database, now: () => AT, bufferRecords: 20_000, metrics });
  const records = Array.from({ length: 5_500 }, (_, index) => view({ t: AT + index }));
  writer.write(records);
  await writer.flush();
  expect(counted).toEqual({ written: 5_500, dropped: 0 });
  expect(writer.buffered()).toBe(0);
  const read = await all(readPostgresRecords(database, { since: AT, until: AT + 10_000 }));
  expect(read.length).toBe(5_500);
  expect(read.every((record, index) => record.t === AT + index)).toBe(true);
});

it('sends, when asked while a batch is under way, what came after it too (a server closing)', async () => {
  const { database } = await fresh();
  const writer = createPostgresRecordWriter({ database, now: () => AT });
  writer.write([view({ t: AT })]);
  const underWay = writer.flush();
  writer.write([view({ t: AT + 1 }), view({ t: AT + 2 })]);
  await writer.flush();
  await underWay;
  expect(writer.buffered()).toBe(0);
  expect((await all(readPostgresRecords(database, { since: AT, until: AT + 2 }))).length).toBe(3);
});

it('keeps a day in a partition of its own, and drops the days past the retention', async () => {
  const { database } = await fresh();
  const partitions = async () =>
    database.transaction(async (client) => {
      const { rows } = await client.query(
        `SELECT child.relname AS name FROM pg_inherits JOIN pg_class child ON child.oid = pg_inherits.inhrelid
         WHERE pg_inherits.inhparent = 'field_records'::regclass ORDER BY 1`,
      );
      return rows.map((row) => row.name);
    });
  const keepsAMonth = createPostgresRecordWriter({ database, now: () => AT, retentionDays: 30 });
  keepsAMonth.write([0, 1, 2, 8].map((days) => view({ t: AT - days * DAY })));
  await keepsAMonth.flush();
  expect(await partitions()).toEqual([
    'field_records_20261123',
    'field_records_20261129',
    'field_records_20261130',
    'field_records_20261201',
  ]);
  // A writer of the default week drops the day before it at its first batch (and then once an hour).
  const keepsAWeek = createPostgresRecordWriter({ database, now: () => AT });
  keepsAWeek.write([view({ t: AT })]);
  await keepsAWeek.flush();
  expect(await partitions()).toEqual(['field_records_20261129', 'field_records_20261130', 'field_records_20261201']);
  expect(await dropPastDays(database, '2026-11-30')).toEqual(['2026-11-29']);
  const left = await all(readPostgresRecords(database, { since: AT - 30 * DAY, until: AT }));
  expect(left.map((record) => (AT - record.t) / DAY)).toEqual([1, 0, 0]);
});

it('holds records while the database is down, within its bound, counts the drops, and catches up at its return', async () => {
  const { database } = await fresh();
  const { metrics, counted, buffered } = metricsStub();
  /** @type {string[]} */
  const told = [];
  let clock = AT;
  const writer = createPostgresRecordWriter({
    database,
    now: () => clock,
    bufferRecords: 100,
    metrics,
    onError: () => told.push('error'),
    onRecovered: () => told.push('recovered'),
  });
  writer.write([view({ t: clock })]);
  await writer.flush();
  postgres.stop();
  try {
    // A visitor's beacon is never held up: write() returns at once, whatever the database.
    const started = performance.now();
    for (let index = 0; index < 150; index += 1) {
      clock += 10;
      writer.write([view({ t: clock })]);
    }
    expect(performance.now() - started).toBeLessThan(100);
    await writer.flush();
    await writer.flush();
    expect(buffered()).toBe(100);
    expect(counted).toEqual({ written: 1, dropped: 50 });
    expect(told).toEqual(['error']);
  } finally {
    postgres.start();
  }
  await writer.flush();
  expect(told).toEqual(['error', 'recovered']);
  expect(counted.written).toBe(101);
  expect(buffered()).toBe(0);
  const read = await all(readPostgresRecords(database, { since: AT, until: clock }));
  // The first record, then the hundred the buffer held: the first hundred written while the database was down.
  expect(read.length).toBe(101);
  expect(read.at(-1)?.t).toBe(AT + 1000);
  // The drops' run is in the database, for a canary whose window it falls in.
  expect(await droppedInPostgres(database, { since: AT + 1001, until: clock })).toBe(true);
  expect(await droppedInPostgres(database, { since: AT - DAY, until: AT + 1000 })).toBe(false);
  expect(await droppedInPostgres(database, { since: clock + 1, until: clock + DAY })).toBe(false);
});

it('refuses a read with one line while the database is down', async () => {
  const { database } = await fresh();
  postgres.stop();
  try {
    await expect(all(readPostgresRecords(database, { since: AT, until: AT + 1 }))).rejects.toThrow(StoreUnavailable);
    await expect(droppedInPostgres(database, { since: AT, until: AT + 1 })).rejects.toThrow(
      /^the store's database cannot be reached/,
    );
  } finally {
    postgres.start();
  }
});

it("reads every node's records through the same source as a folder's, naming the database but not its password", async () => {
  const { databaseUrl, database } = await fresh();
  const writer = createPostgresRecordWriter({ database, now: () => AT });
  writer.write([view({ t: AT })]);
  await writer.flush();
  const secretUrl = databaseUrl.replace('postgres@', 'postgres:hunter2@');
  const source = openFieldRecords({ dir: '/nowhere', databaseUrl: secretUrl });
  try {
    expect(source.where).toMatch(/^the database field_\d+ on 127\.0\.0\.1:\d+$/);
    expect((await all(source.read({ since: AT, until: AT }))).length).toBe(1);
    expect(await source.droppedIn({ since: AT, until: AT })).toBe(false);
  } finally {
    await source.close();
  }
});

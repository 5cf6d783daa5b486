// Field data on PostgreSQL (with DATABASE_URL): every node's records in one table, `field_records`, partitioned by
// day (the store's migrations make it: @nativegtm/store/postgres/migrations). Readers (`npm run vitals`, the status
// page, the canary) see every node's records, not one node's folder.
//
// A writer never holds up a document: write() only appends to a buffer in memory, sent in batches (one INSERT of up
// to BATCH_RECORDS records, at most every FLUSH_INTERVAL_MS, sooner when a batch is full). While the database cannot
// take them, records wait in that buffer, which holds at most `bufferRecords` (10,000 by default, counting the batch
// under way): past it, records are dropped and counted (nativegtm_field_data_records_total{outcome="dropped"}), and
// once the database is back the writer records its run of drops in `field_drops`, for the canary to judge nothing of
// that window. A crash loses the buffer, as the folder store loses its last second.
//
// The writers keep the partitions: each makes a day's before its first records of that day, and drops the days past
// the retention (7 by default) once an hour, each under one advisory lock so that nodes doing it at once do not
// collide.
const Cursor = require('pg-cursor');
const { asUnavailable } = require('@nativegtm/store/postgres/database');
const { writerName, DEFAULT_BUFFER_RECORDS, DEFAULT_RETENTION_DAYS } = require('./recordStore');

/** @typedef {import('./recordStore').FieldRecord} FieldRecord */
/** @typedef {import('@nativegtm/store/postgres/database').Database} Database */

const FLUSH_INTERVAL_MS = 1000;
/** Records in one INSERT. */
const BATCH_RECORDS = 2000;
const PRUNE_EVERY_MS = 3600_000;
/** The advisory lock of partition changes (any number: one the store's other locks do not use). */
const PARTITION_LOCK = 7_240_311;
const DAY_MS = 86_400_000;
/** Rows a reader takes from its cursor at a time. */
const READ_ROWS = 1000;

/** A day's name: `2026-12-01` (UTC). @param {number} time */
const dayOf = (time) => new Date(time).toISOString().slice(0, 10);
/** A day's partition: `field_records_20261201`. @param {string} day */
const partitionOf = (day) => `field_records_${day.replaceAll('-', '')}`;
const PARTITION_NAME = /^field_records_(\d{4})(\d{2})(\d{2})$/;

/**
 * Makes the partitions of these days, if missing.
 * @param {import('pg').PoolClient} client
 * @param {Iterable<string>} days
 */
async function makePartitions(client, days) {
  await client.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
  for (const day of days) {
    const next = dayOf(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
    // Names and bounds are made here from dates, never from input: no parameter can stand in a DDL statement.
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${partitionOf(day)} PARTITION OF field_records ` +
        `FOR VALUES FROM ('${day} 00:00:00+00') TO ('${next} 00:00:00+00')`,
    );
  }
}

/**
 * Drops the partitions of the days before `oldest`, and the drops' rows before it; resolves to the days dropped.
 * Skipped when another writer is at it.
 * @param {Database} database
 * @param {string} oldest the first day kept
 */
function dropPastDays(database, oldest) {
  return database.transaction(async (client) => {
    const { rows: locked } = await client.query('SELECT pg_try_advisory_xact_lock($1) AS got', [PARTITION_LOCK]);
    if (!locked[0]?.got) return [];
    const { rows } = await client.query(
      `SELECT child.relname AS name FROM pg_inherits JOIN pg_class child ON child.oid = pg_inherits.inhrelid
       WHERE pg_inherits.inhparent = 'field_records'::regclass`,
    );
    /** @type {string[]} */
    const dropped = [];
    for (const { name } of rows) {
      const match = PARTITION_NAME.exec(name);
      if (!match) continue;
      const day = `${match[1]}-${match[2]}-${match[3]}`;
      if (day >= oldest) continue;
      await client.query(`DROP TABLE IF EXISTS ${partitionOf(day)}`);
      dropped.push(day);
    }
    await client.query('DELETE FROM field_drops WHERE latest < $1', [`${oldest} 00:00:00+00`]);
    return dropped;
  });
}

/**
 * @param {{ database: Database, bufferRecords?: number, retentionDays?: number, now?: () => number,
 *   onError?: (error: Error) => void, onRecovered?: () => void,
 *   metrics?: Pick<import('../observability/metrics').Metrics, 'fieldRecords' | 'watchBufferedRecords'> }} options
 *   onError: a batch the database did not take (the records wait for the next); onRecovered: the first batch it took
 *   after that
 */
function createPostgresRecordWriter({
  database,
  bufferRecords = DEFAULT_BUFFER_RECORDS,
  retentionDays = DEFAULT_RETENTION_DAYS,
  now = Date.now,
  onError = () => {},
  onRecovered = () => {},
  metrics,
}) {
  const writer = writerName();
  /** @type {FieldRecord[]} */
  let buffered = [];
  /** The batch being sent: counted in the buffer's bound until the database took it. */
  let sending = 0;
  /** @type {Promise<void> | undefined} */
  let flushing;
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** Days whose partition this writer knows is there. */
  const partitions = new Set();
  /** The current run of drops, not yet recorded in the database. */
  let drops = { records: 0, first: 0, latest: 0 };
  let failing = false;
  let prunedAt = -Infinity;
  metrics?.watchBufferedRecords(() => buffered.length + sending);

  /** Sends one batch (and the drops so far); on failure the batch goes back to the front of the buffer. */
  async function sendBatch() {
    const batch = buffered.splice(0, BATCH_RECORDS);
    const run = drops;
    sending = batch.length;
    try {
      const days = new Set(batch.map((record) => dayOf(record.t)));
      const missing = [...days].filter((day) => !partitions.has(day));
      await database.transaction(async (client) => {
        if (missing.length > 0) await makePartitions(client, missing);
        if (batch.length > 0) {
          // One parameter, the batch as a JSON array, whatever its size: no statement grows with it.
          await client.query(
            `INSERT INTO field_records (at, record)
             SELECT to_timestamp((item->>'t')::double precision / 1000), item FROM jsonb_array_elements($1::jsonb) item`,
            [JSON.stringify(batch)],
          );
        }
        if (run.records > 0) {
          await client.query(
            'INSERT INTO field_drops (writer, first, latest, records) VALUES ($1, to_timestamp($2 / 1000.0), to_timestamp($3 / 1000.0), $4)',
            [writer, run.first, run.latest, run.records],
          );
        }
      });
      for (const day of missing) partitions.add(day);
      // What dropped while the batch was sent stays counted; a run left empty starts afresh at its next drop.
      if (run.records > 0) drops = { ...drops, records: drops.records - run.records };
      metrics?.fieldRecords('written', batch.length);
      if (failing) {
        failing = false;
        onRecovered();
      }
    } catch (error) {
      buffered = batch.concat(buffered);
      if (!failing) {
        failing = true;
        onError(/** @type {Error} */ (error));
      }
      throw error;
    } finally {
      sending = 0;
    }
  }

  /** Sends what is buffered, batch after batch, until it is empty or the database fails. */
  async function sendAll() {
    try {
      do await sendBatch();
      while (buffered.length > 0);
    } catch {
      // Told once (onError); the records wait for the next flush.
    }
    const time = now();
    if (!failing && time - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = time;
      await dropPastDays(database, dayOf(time - (retentionDays - 1) * DAY_MS)).catch((error) => onError(error));
    }
  }

  /**
   * Sends what is buffered now. One under way is let finish first, then what came meanwhile is sent (unless the
   * database has just failed: then it waits for the next flush).
   * @returns {Promise<void>}
   */
  function flush() {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (flushing) return flushing.then(() => (buffered.length > 0 && !failing ? flush() : undefined));
    if (buffered.length > 0 || drops.records > 0) {
      flushing = sendAll().finally(() => {
        flushing = undefined;
        // What arrived meanwhile, or what the database did not take: in a second.
        if (buffered.length > 0 || drops.records > 0) timer ??= setTimeout(flush, FLUSH_INTERVAL_MS).unref();
      });
    }
    return flushing ?? Promise.resolve();
  }

  return {
    /**
     * Buffers the records; never waits. Past the buffer's bound they are dropped, and counted.
     * @param {FieldRecord[]} records
     */
    write(records) {
      const room = Math.max(0, bufferRecords - buffered.length - sending);
      const kept = records.length <= room ? records : records.slice(0, room);
      for (const record of kept) buffered.push(record);
      const lost = records.length - kept.length;
      if (lost > 0) {
        const time = now();
        drops = { records: drops.records + lost, first: drops.records > 0 ? drops.first : time, latest: time };
        metrics?.fieldRecords('dropped', lost);
      }
      if (buffered.length >= BATCH_RECORDS && !flushing) void flush();
      else timer ??= setTimeout(flush, FLUSH_INTERVAL_MS).unref();
    },
    /** Sends what is buffered now; resolves once the database took it, or refused it (then it stays buffered). */
    flush,
    /** Records waiting for the database. */
    buffered: () => buffered.length + sending,
  };
}

/** @typedef {ReturnType<typeof createPostgresRecordWriter>} PostgresRecordWriter */

/**
 * Every node's records from `since` to `until` (ms since 1970), in the order received, paged through a cursor on one
 * snapshot of the table: a week of records is never in memory at once.
 * @param {Database} database
 * @param {{ since: number, until?: number }} window
 * @returns {AsyncGenerator<FieldRecord>}
 */
async function* readPostgresRecords(database, { since, until = Date.now() }) {
  const { client, end } = await database.snapshot();
  try {
    const cursor = client.query(
      new Cursor(
        `SELECT record FROM field_records WHERE at >= to_timestamp($1 / 1000.0) AND at <= to_timestamp($2 / 1000.0)
         ORDER BY at`,
        [since, until],
      ),
    );
    for (;;) {
      /** @type {{ record: FieldRecord }[]} */
      let rows;
      try {
        rows = await cursor.read(READ_ROWS);
      } catch (error) {
        throw asUnavailable(error);
      }
      if (rows.length === 0) break;
      for (const { record } of rows) {
        // The window is exact to the millisecond, as on a folder store, whatever the timestamps' rounding.
        if (typeof record?.t === 'number' && record.t >= since && record.t <= until) yield record;
      }
    }
    await cursor.close();
  } finally {
    await end();
  }
}

/**
 * Whether any writer dropped records from `since` to `until` (ms since 1970).
 * @param {Database} database
 * @param {{ since: number, until: number }} window
 */
async function droppedInPostgres(database, { since, until }) {
  return database.transaction(
    async (client) => {
      const { rows } = await client.query(
        `SELECT EXISTS (SELECT 1 FROM field_drops WHERE first <= to_timestamp($2 / 1000.0)
           AND latest >= to_timestamp($1 / 1000.0)) AS dropped`,
        [since, until],
      );
      return Boolean(rows[0]?.dropped);
    },
    { readOnly: true },
  );
}

module.exports = {
  createPostgresRecordWriter,
  readPostgresRecords,
  droppedInPostgres,
  dropPastDays,
};

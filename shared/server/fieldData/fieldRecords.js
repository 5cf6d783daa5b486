// Where field data is kept, chosen in one place for both servers and every reader: the folder FIELD_DATA_DIR
// (recordStore.js, the default: one machine), or with a database (DATABASE_URL) its `field_records` table
// (postgresRecords.js), where every node's records meet. A reader (`npm run vitals`, the status page, the canary) asks
// a FieldRecordSource for a window's records and whether any were dropped in it, whichever it is.
//
// The database's modules are loaded only with a database: a folder store never loads the PostgreSQL client.
const { readRecords, createRecordWriter, writerName } = require('./recordStore');
const { createStoreBudget, droppedIn } = require('./storeBudget');

/** The database's modules, loaded on first use. */
function postgres() {
  const { openDatabase } = require('@nativegtm/store/postgres/database');
  return { openDatabase, ...require('./postgresRecords') };
}

/** @typedef {import('./recordStore').FieldRecord} FieldRecord */
/** @typedef {{ since: number, until: number }} Window ms since 1970 */

/**
 * @typedef {object} FieldRecordSource
 * @property {string} where what a reader prints of it: the folder, or the database's host and name
 * @property {(window: { since: number, until?: number }) => AsyncIterable<FieldRecord>} read the window's records
 * @property {(window: Window) => Promise<boolean>} droppedIn whether a writer refused records in the window
 * @property {() => Promise<void>} close
 */

/**
 * The database's host and name, never its credentials: what a reader may print.
 * @param {string} databaseUrl
 */
function databaseName(databaseUrl) {
  try {
    const url = new URL(databaseUrl);
    const host = url.host || new URLSearchParams(url.search).get('host') || 'localhost';
    return `the database ${url.pathname.replace(/^\//, '')} on ${host}`;
  } catch {
    return 'the database';
  }
}

/**
 * @param {{ dir: string, databaseUrl?: string }} options dir: FIELD_DATA_DIR (fieldDataDir()); databaseUrl: with it,
 *   the database's records instead
 * @returns {FieldRecordSource}
 */
function openFieldRecords({ dir, databaseUrl }) {
  if (databaseUrl) {
    const { openDatabase, readPostgresRecords, droppedInPostgres } = postgres();
    const database = openDatabase(databaseUrl);
    return {
      where: databaseName(databaseUrl),
      read: (window) => readPostgresRecords(database, window),
      droppedIn: (window) => droppedInPostgres(database, window),
      close: () => database.close(),
    };
  }
  return {
    where: dir,
    read: (window) => readRecords(dir, window),
    droppedIn: async (window) => droppedIn(dir, window),
    close: async () => {},
  };
}

/**
 * What a server writes records through, and what admits them.
 * @typedef {{ write: (records: FieldRecord[]) => void, flush: () => void | Promise<void>,
 *   admit: () => boolean }} FieldRecordSink
 *   admit: whether the store has room for another beacon's records (the folder's byte budget; always, on a database,
 *   whose writer bounds its buffer itself)
 */

/**
 * @param {{ dir: string, databaseUrl?: string, maxPerHour?: number, maxTotal?: number, bufferRecords?: number,
 *   retentionDays?: number, metrics?: import('../observability/metrics').Metrics,
 *   logger: import('../observability/logger').Logger }} options
 * @returns {FieldRecordSink}
 */
function openFieldRecordSink({
  dir,
  databaseUrl,
  maxPerHour,
  maxTotal,
  bufferRecords,
  retentionDays,
  metrics,
  logger,
}) {
  if (databaseUrl) {
    const { openDatabase, createPostgresRecordWriter } = postgres();
    const writer = createPostgresRecordWriter({
      database: openDatabase(databaseUrl),
      bufferRecords,
      retentionDays,
      metrics,
      onError: (error) =>
        logger.error({ problem: error.message }, 'field data not written: kept in memory until the database takes it'),
      onRecovered: () => logger.info('field data written again'),
    });
    return { write: writer.write, flush: writer.flush, admit: () => true };
  }
  const onError = (/** @type {Error} */ error) => logger.error({ err: error }, 'field data could not be written');
  const budget = createStoreBudget({ dir, name: writerName(), hourBytes: maxPerHour, totalBytes: maxTotal, onError });
  const writer = createRecordWriter({
    dir,
    onError,
    budget,
    ...(retentionDays === undefined ? {} : { retentionHours: retentionDays * 24 }),
  });
  return { write: writer.write, flush: writer.flush, admit: budget.admit };
}

module.exports = { openFieldRecords, openFieldRecordSink };

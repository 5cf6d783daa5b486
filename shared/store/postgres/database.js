// The store's connection to PostgreSQL (DATABASE_URL): a small pool, transactions, and what a refusal says when the
// database cannot be reached or is not at this version's schema.
const { Pool } = require('pg');
const { StoreRefusal, StoreUnavailable } = require('../storeRefusal');
const { MIGRATIONS_TABLE, neededMigrations } = require('./migrate');

/**
 * Error codes of a database that is not there, or went away: Node's network errors, SQLSTATE classes 08 and 57P, and
 * 25P03, a session PostgreSQL ended for sitting idle in its transaction (a stalled change, ./postgresBackend.js).
 */
const UNREACHABLE = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|08...|57P0[1-5]|25P03)$/;

/**
 * The error as a refusal when the database cannot be reached; as it is otherwise.
 * @param {unknown} error
 */
function asUnavailable(error) {
  const { code, message } = /** @type {{ code?: string, message?: string }} */ (error ?? {});
  const cut = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/;
  if ((code && UNREACHABLE.test(code)) || (message && cut.test(message))) {
    return new StoreUnavailable(`the store's database cannot be reached (${code ?? message}); nothing was changed`);
  }
  return error;
}

/**
 * @param {string} databaseUrl
 * @param {{ max?: number }} [options]
 */
function openDatabase(databaseUrl, { max = 2 } = {}) {
  const pool = new Pool({ connectionString: databaseUrl, max, connectionTimeoutMillis: 5_000 });
  // An idle connection the server closed (a restart) is dropped; the next query opens another.
  pool.on('error', () => {});
  let checked = false;

  /**
   * Refuses a database the migrations of this version have not all run on (once per process).
   * @param {import('pg').PoolClient} client
   */
  async function checkSchema(client) {
    if (checked) return;
    /** @type {Set<string>} */
    let ran;
    try {
      const { rows } = await client.query(`SELECT name FROM ${MIGRATIONS_TABLE}`);
      ran = new Set(rows.map((row) => row.name));
    } catch (error) {
      if (/** @type {{ code?: string }} */ (error).code !== '42P01') throw error;
      ran = new Set();
    }
    const missing = neededMigrations().filter((name) => !ran.has(name));
    if (missing.length > 0) {
      throw new StoreRefusal(
        `the store's database lacks this version's schema (${missing.join(', ')}): run npm run store -- migrate`,
      );
    }
    checked = true;
  }

  /**
   * A connection of the pool; release() gives it back, thrown away if the server ended it meanwhile (a restart): such
   * a connection fails its query and also emits an error that would end the process, heard here.
   */
  async function checkOut() {
    let client;
    try {
      client = await pool.connect();
    } catch (error) {
      throw asUnavailable(error);
    }
    let broken = false;
    const onError = () => {
      broken = true;
    };
    client.on('error', onError);
    const connection = client;
    return {
      client,
      /** Ends the transaction under way, if any, changing nothing. */
      rollback: () =>
        connection.query('ROLLBACK').then(
          () => undefined,
          () => {
            broken = true;
          },
        ),
      release: () => {
        connection.off('error', onError);
        connection.release(broken);
      },
    };
  }

  /**
   * Runs `work` in one transaction; it commits when `work` resolves, and changes nothing when it throws.
   * @template T
   * @param {(client: import('pg').PoolClient) => Promise<T>} work
   * @param {{ readOnly?: boolean }} [options]
   * @returns {Promise<T>}
   */
  async function transaction(work, { readOnly = false } = {}) {
    const { client, rollback, release } = await checkOut();
    try {
      await checkSchema(client);
      await client.query(readOnly ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await rollback();
      throw asUnavailable(error);
    } finally {
      release();
    }
  }

  /**
   * A read-only snapshot on a connection of its own, for a read longer than one call (a cursor the caller pages
   * through); end() gives the connection back.
   * @returns {Promise<{ client: import('pg').PoolClient, end: () => Promise<void> }>}
   */
  async function snapshot() {
    const { client, rollback, release } = await checkOut();
    const end = async () => {
      await rollback();
      release();
    };
    try {
      await checkSchema(client);
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    } catch (error) {
      await end();
      throw asUnavailable(error);
    }
    return { client, end };
  }

  return { transaction, snapshot, close: () => pool.end() };
}

/** @typedef {ReturnType<typeof openDatabase>} Database */

module.exports = { openDatabase, asUnavailable };

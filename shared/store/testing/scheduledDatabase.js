// Store databases whose transactions wait for a fast-check scheduler (fc.scheduler) at each step another transaction
// can observe, so that run after run the scheduler picks the order in which concurrent changes and syncs reach
// PostgreSQL. A read-only transaction waits before its snapshot; a change waits before it takes its store revision
// and before it commits (what it writes in between are its own remote's rows, under that row's lock: no other
// transaction sees them). What the database itself makes wait (a row lock, an advisory lock) still waits there, so
// only orders PostgreSQL allows happen.
//
// fast-check lets a step go as soon as the JavaScript in flight settles, but a transaction spends most of its time in
// the database's I/O: a step would almost always go before another transaction even reached its next one, and the
// orders that matter (two changes' commits around a node's snapshot) would hardly ever be drawn. So the steps are let
// go by drive(): one at a time, each once no transaction is between two of its steps (or, for one waiting on a lock
// in the database, after a moment).
/** @typedef {import('../postgres/database').Database} Database */

/** The statement a change takes its store revision with (../postgres/postgresBackend.js). */
const TAKES_REVISION = /nextval\('store_revision'\)/;
/** How long drive() waits for a transaction that is not at a step: one waiting on a lock may never get to one. */
const LOCK_WAIT_MS = 30;

/** @param {number} ms */
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @param {import('fast-check').Scheduler} scheduler
 */
function scheduledTransactions(scheduler) {
  /** Transactions between two of their steps: running JavaScript or waiting on the database. */
  let busy = 0;
  /** @param {string} what */
  const turn = async (what) => {
    busy -= 1;
    try {
      await scheduler.schedule(Promise.resolve(), what);
    } finally {
      busy += 1;
    }
  };

  /**
   * @param {Database} database
   * @param {string} name who runs on it, for the scheduler's report (`jobs`, `node`)
   * @param {{ afterCommit?: () => void }} [options] afterCommit: after each change committed (as PostgreSQL then
   *   notifies the nodes)
   * @returns {Database}
   */
  function scheduledDatabase(database, name, { afterCommit = () => {} } = {}) {
    /** @param {import('pg').PoolClient} client */
    const scheduledClient = (client) =>
      /** @type {import('pg').PoolClient} */ (
        new Proxy(client, {
          get(target, key) {
            if (key !== 'query') return Reflect.get(target, key);
            return async (/** @type {any[]} */ ...args) => {
              if (typeof args[0] === 'string' && TAKES_REVISION.test(args[0]))
                await turn(`${name}: takes its revision`);
              return /** @type {any} */ (target.query)(...args);
            };
          },
        })
      );
    return {
      ...database,
      transaction: async (work, options) => {
        busy += 1;
        try {
          const result = await database.transaction(async (client) => {
            if (options?.readOnly) await turn(`${name}: snapshot`);
            const done = await work(options?.readOnly ? client : scheduledClient(client));
            // A snapshot's end changes nothing another transaction sees.
            if (!options?.readOnly) await turn(`${name}: commit`);
            return done;
          }, options);
          if (!options?.readOnly) afterCommit();
          return result;
        } finally {
          busy -= 1;
        }
      },
    };
  }

  /**
   * Lets the steps go one at a time, each once every transaction is at a step, until `until` settles.
   * @template T
   * @param {Promise<T>} until
   * @returns {Promise<T>}
   */
  async function drive(until) {
    let settled = false;
    const outcome = until.finally(() => {
      settled = true;
    });
    outcome.catch(() => {});
    while (!settled) {
      for (let waited = 0; busy > 0 && waited < LOCK_WAIT_MS && !settled; waited += 1) await pause(1);
      // What a step let go starts in the next turns of the event loop (a sync after a notification).
      await new Promise((resolve) => setImmediate(resolve));
      if (settled) break;
      if (scheduler.count() > 0) await scheduler.waitNext(1);
      else await pause(1);
    }
    return outcome;
  }

  return { scheduledDatabase, drive };
}

module.exports = { scheduledTransactions };

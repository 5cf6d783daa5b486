// Brings a store's database to this version's schema with node-pg-migrate (its migrations are ./migrations/, run in
// order, each once, under the tool's advisory lock so that two at once do not collide). An operator runs it before
// the nodes of a new version start (`npm run store -- migrate`); the commands and servers refuse a database it has not
// brought up to date.
const path = require('node:path');

const MIGRATIONS = path.join(__dirname, 'migrations');
const MIGRATIONS_TABLE = 'pgmigrations';

/**
 * Runs the migrations not yet run. Resolves to their names.
 * @param {string} databaseUrl
 * @param {{ log?: (line: string) => void }} [options]
 */
async function migrateStore(databaseUrl, { log = () => {} } = {}) {
  // ESM only: loaded when a database is used, so that a folder store never loads it.
  const { runner } = await import('node-pg-migrate');
  const ran = await runner({
    databaseUrl,
    dir: MIGRATIONS,
    migrationsTable: MIGRATIONS_TABLE,
    direction: 'up',
    checkOrder: true,
    advisoryLockMode: 'wait',
    log,
    logger: { debug: () => {}, info: log, warn: log, error: log },
  });
  return ran.map((migration) => migration.name);
}

/** The names of the migrations this version needs. */
function neededMigrations() {
  return require('node:fs')
    .readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith('.js'))
    .map((name) => name.replace(/\.js$/, ''))
    .sort();
}

module.exports = { migrateStore, neededMigrations, MIGRATIONS_TABLE };

// The database role the deploy API runs as (`npm run store -- grant-deploy-api <role>`): what a change of the store
// needs of the release tables, read-only on the deploy tokens (only the operator's token commands make or revoke
// them) and on the field data its canaries are judged on (only the servers write it), and the audit to append to and
// read, never to update, delete or truncate. The audit's triggers refuse those for every role anyway (migration
// 1765100000000); the grants keep the API's role from even asking. The role itself (its login and password) is the
// operator's to create: this grants it only what it may do.
const { Client } = require('pg');
const { MIGRATIONS_TABLE } = require('./migrate');

/** The tables a change of the store reads and writes (./postgresBackend.js). */
const STORE_TABLES = [
  'remotes',
  'releases',
  'gates',
  'preview_marks',
  'live_changes',
  'canaries',
  'canary_leases',
  'ended_canaries',
];
/**
 * The field data a canary's steps and status read (@nativegtm/server/fieldData/postgresRecords.js). The servers make
 * a partition of field_records per day; PostgreSQL checks a read through the partitioned table against that table's
 * privileges only, never its partitions', so SELECT on the parent reaches every partition, those made after the grant
 * too, and none is granted on its own (the role has no reason to read a partition by its name).
 */
const FIELD_TABLES = ['field_records', 'field_drops'];

/**
 * Grants `role` what the deploy API needs of the database at `databaseUrl`, and revokes the rest.
 * @param {string} databaseUrl an owner's (the one migrations run with)
 * @param {string} role
 */
async function grantDeployApi(databaseUrl, role) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const who = client.escapeIdentifier(role);
    const tables = STORE_TABLES.join(', ');
    await client.query('BEGIN');
    for (const sql of [
      `REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${who}`,
      `GRANT USAGE ON SCHEMA public TO ${who}`,
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ${tables} TO ${who}`,
      `GRANT SELECT ON deploy_tokens TO ${who}`,
      `GRANT SELECT ON ${FIELD_TABLES.join(', ')} TO ${who}`,
      // Every connection checks the schema is this version's (./database.js).
      `GRANT SELECT ON ${MIGRATIONS_TABLE} TO ${who}`,
      `GRANT SELECT, INSERT ON audit TO ${who}`,
      // nextval() of the store's revision and of each table's serial column.
      `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${who}`,
    ]) {
      await client.query(sql);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

module.exports = { grantDeployApi };

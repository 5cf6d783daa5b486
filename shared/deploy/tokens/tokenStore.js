// Where deploy tokens are kept, beside the release store they reach: a file in the store's folder, or a table of its
// database. Only the operator's token commands write; the deploy API reads on every request, so a revocation counts
// from the next one.
const fs = require('node:fs');
const path = require('node:path');
const { writeFileDurably } = require('@nativegtm/store/durableFiles');
const { withStoreLock } = require('@nativegtm/store/storeLock');
const { StoreRefusal } = require('@nativegtm/store/storeRefusal');
const { isTokenRecord } = require('./deployTokens');

/** @typedef {import('./deployTokens').TokenRecord} TokenRecord */

/**
 * @typedef {object} TokenStore
 * @property {string} where for messages
 * @property {(record: TokenRecord) => Promise<void>} add
 * @property {() => Promise<TokenRecord[]>} list oldest first
 * @property {(id: string) => Promise<TokenRecord | undefined>} find
 * @property {(id: string, at: Date) => Promise<TokenRecord>} revoke refused when there is no such token
 * @property {() => Promise<void>} close
 */

/**
 * The tokens of a folder store: <store>/.deploy/tokens.json, readable by its owner only, replaced whole under a lock.
 * A name no remote can have, so the servers never look there.
 * @param {string} storeDir
 * @returns {TokenStore}
 */
function folderTokenStore(storeDir) {
  const dir = path.join(storeDir, '.deploy');
  const file = path.join(dir, 'tokens.json');
  /** @returns {TokenRecord[]} */
  const read = () => {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return [];
      throw error;
    }
    const parsed = JSON.parse(text);
    if (!Array.isArray(parsed)) throw new StoreRefusal(`${file} is not a list of tokens`);
    // A record this version cannot read reaches nothing.
    return parsed.filter(isTokenRecord);
  };
  /**
   * @template T
   * @param {string} what
   * @param {(tokens: TokenRecord[]) => { tokens: TokenRecord[], result: T }} change
   */
  const write = async (what, change) => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return withStoreLock(path.join(dir, '.lock'), what, async (fence) => {
      const { tokens, result } = change(read());
      writeFileDurably(file, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600, fence });
      return result;
    });
  };
  return {
    where: file,
    add: (record) =>
      write(`tokens create ${record.id}`, (tokens) => ({ tokens: [...tokens, record], result: undefined })),
    list: async () => read(),
    find: async (id) => read().find((record) => record.id === id),
    revoke: (id, at) =>
      write(`tokens revoke ${id}`, (tokens) => {
        const record = tokens.find((candidate) => candidate.id === id);
        if (!record) throw new StoreRefusal(`there is no token ${id} in ${file}`);
        const revoked = { ...record, revoked: record.revoked ?? at.toISOString() };
        return { tokens: tokens.map((candidate) => (candidate === record ? revoked : candidate)), result: revoked };
      }),
    close: async () => {},
  };
}

/**
 * The tokens of a store on PostgreSQL: the deploy_tokens table (migration 1765100000001_deploy-tokens).
 * @param {import('@nativegtm/store/postgres/database').Database} database
 * @param {string} where
 * @returns {TokenStore}
 */
function postgresTokenStore(database, where) {
  /** @param {any} row @returns {TokenRecord | undefined} */
  const recordOf = (row) => {
    const record = {
      id: row.id,
      remote: row.remote,
      actions: row.actions,
      team: row.team,
      created: new Date(row.created).toISOString(),
      expires: new Date(row.expires).toISOString(),
      revoked: row.revoked ? new Date(row.revoked).toISOString() : null,
      createdBy: row.created_by,
      hash: row.hash,
    };
    return isTokenRecord(record) ? record : undefined;
  };
  const COLUMNS = 'id, remote, actions, team, created, expires, revoked, created_by, hash';
  /** @param {string} sql @param {unknown[]} values */
  const query = (sql, values) => database.transaction(async (client) => (await client.query(sql, values)).rows);
  return {
    where,
    add: async (record) => {
      await query(`INSERT INTO deploy_tokens (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
        record.id,
        record.remote,
        record.actions,
        record.team,
        record.created,
        record.expires,
        record.revoked,
        record.createdBy,
        record.hash,
      ]);
    },
    list: async () =>
      (await query(`SELECT ${COLUMNS} FROM deploy_tokens ORDER BY created, id`, [])).flatMap(
        (row) => recordOf(row) ?? [],
      ),
    find: async (id) => {
      const [row] = await query(`SELECT ${COLUMNS} FROM deploy_tokens WHERE id = $1`, [id]);
      return row === undefined ? undefined : recordOf(row);
    },
    revoke: async (id, at) => {
      const rows = await query(
        `UPDATE deploy_tokens SET revoked = COALESCE(revoked, $2) WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, at.toISOString()],
      );
      const record = rows[0] && recordOf(rows[0]);
      if (!record) throw new StoreRefusal(`there is no token ${id} in ${where}`);
      return record;
    },
    close: () => database.close(),
  };
}

module.exports = { folderTokenStore, postgresTokenStore };

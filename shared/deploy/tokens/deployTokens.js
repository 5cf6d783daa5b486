// A deploy token: `ngd_<id>_<secret>`, made for one remote, some actions and a time. The id names the token in
// lists, logs and the audit; only the secret's SHA-256 is stored, so whoever reads the store cannot act with what it
// finds. The secret is 32 random bytes: no one guesses it, so a fast hash is enough (a password would need a slow
// one), and it is compared in constant time.
const { createHash, randomBytes, timingSafeEqual } = require('node:crypto');
const { isRemoteName } = require('@nativegtm/contract/remotes');
const { isDeployAction } = require('@nativegtm/contract/deployApi');

/** @typedef {import('@nativegtm/contract/deployApi').DeployAction} DeployAction */

/**
 * A token as the store keeps it.
 * @typedef {object} TokenRecord
 * @property {string} id 12 hex digits
 * @property {string} remote the one remote it reaches
 * @property {DeployAction[]} actions
 * @property {string} team who it was made for, as the audit names them
 * @property {string} created ISO time
 * @property {string} expires ISO time
 * @property {string | null} revoked ISO time, or null
 * @property {string} createdBy who made it (the operator's user and host)
 * @property {string} hash the secret's SHA-256, hex
 */

const TOKEN = /^ngd_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
/** The longest Authorization header the API reads a token from. */
const MAX_TOKEN_LENGTH = 64;

/** @param {string} secret */
const hashOf = (secret) => createHash('sha256').update(secret).digest('hex');

/**
 * A new token for `remote` and `actions`: what is printed once (`token`), and what the store keeps (`record`).
 * @param {{ remote: string, actions: DeployAction[], team: string, expires: Date, createdBy: string, now?: Date }} what
 */
function makeToken({ remote, actions, team, expires, createdBy, now = new Date() }) {
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  /** @type {TokenRecord} */
  const record = {
    id,
    remote,
    actions,
    team,
    created: now.toISOString(),
    expires: expires.toISOString(),
    revoked: null,
    createdBy,
    hash: hashOf(secret),
  };
  return { token: `ngd_${id}_${secret}`, record };
}

/**
 * The id and secret of what a client sent as a token, or null when it cannot be one.
 * @param {string} text
 */
function parseToken(text) {
  if (text.length > MAX_TOKEN_LENGTH) return null;
  const match = TOKEN.exec(text);
  return match ? { id: /** @type {string} */ (match[1]), secret: /** @type {string} */ (match[2]) } : null;
}

/** What a missing record is compared against: as long as a real one, so that an unknown id takes the same time. */
const NO_HASH = '0'.repeat(64);

/**
 * The record a token proves, or why not: unknown (or a wrong secret), revoked, or expired. The secret's hash is
 * compared in constant time, whether or not the id is known.
 * @param {string} text what the client sent
 * @param {(id: string) => TokenRecord | undefined} find
 * @param {Date} now
 * @returns {{ record: TokenRecord } | { problem: string }}
 */
function checkToken(text, find, now) {
  const parsed = parseToken(text);
  const record = parsed ? find(parsed.id) : undefined;
  const expected = Buffer.from(record?.hash ?? NO_HASH, 'hex');
  const given = Buffer.from(hashOf(parsed?.secret ?? ''), 'hex');
  const matches = timingSafeEqual(expected, given) && record !== undefined;
  if (!matches || !record) return { problem: 'the token is not one this API made' };
  if (record.revoked) return { problem: `token ${record.id} was revoked at ${record.revoked}` };
  if (Date.parse(record.expires) <= now.getTime())
    return { problem: `token ${record.id} expired at ${record.expires}` };
  return { record };
}

/**
 * Whether a value read back from a store is a token record this version writes.
 * @param {any} value
 * @returns {value is TokenRecord}
 */
const isTokenRecord = (value) =>
  typeof value?.id === 'string' &&
  /^[0-9a-f]{12}$/.test(value.id) &&
  typeof value.remote === 'string' &&
  isRemoteName(value.remote) &&
  Array.isArray(value.actions) &&
  value.actions.every((/** @type {unknown} */ action) => typeof action === 'string' && isDeployAction(action)) &&
  typeof value.team === 'string' &&
  typeof value.created === 'string' &&
  typeof value.expires === 'string' &&
  (value.revoked === null || typeof value.revoked === 'string') &&
  typeof value.createdBy === 'string' &&
  typeof value.hash === 'string' &&
  /^[0-9a-f]{64}$/.test(value.hash);

module.exports = { makeToken, parseToken, checkToken, isTokenRecord };

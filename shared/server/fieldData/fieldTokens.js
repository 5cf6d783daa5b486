// The proof that a beacon comes from a document the site served: a token the server signs into each private document
// (a preview; a canary's and its control's documents), `<document id>.<expiry>.<cohort>.<HMAC-SHA256>`: the cohort
// says who the document was served to (a preview, or a side of a remote's canary), signed with the rest, so a beacon
// cannot claim another side than its document's. A shared document
// cannot carry one (a CDN would hand the same token to everyone), so records from shared documents are unsigned: they
// count on dashboards, but never in a decision (signedRecords.js). Every server and node that reads the same
// FIELD_DATA_DIR signs and checks with the same key: FIELD_DATA_SECRET, or a key made once in that folder.
const { createHmac, randomBytes, timingSafeEqual } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { COHORT, TOKEN } = require('@nativegtm/contract/fieldData');

/** How long a document's token is accepted: a tab left open for a day still reports its views. */
const TOKEN_LIFETIME_SECONDS = 24 * 3600;
/** The key's file in the field-data folder, readable by its owner only. */
const KEY_FILE = '.token-key';

/**
 * The signing key: the configured secret, or the field-data folder's own, made the first time any process needs it.
 * Made with `wx`, so two processes starting at once end up with the same key (the loser reads the winner's).
 * @param {{ dir: string, secret?: string }} options
 * @returns {Buffer}
 */
function tokenKey({ dir, secret }) {
  if (secret) return Buffer.from(secret);
  const file = path.join(dir, KEY_FILE);
  fs.mkdirSync(dir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
  }
  // Written whole in one call; a reader that raced the writer's open may see it empty for an instant.
  for (let attempt = 0; ; attempt += 1) {
    const key = fs.readFileSync(file, 'utf8').trim();
    if (key.length >= 32 || attempt >= 50) return Buffer.from(key);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
}

/**
 * @param {{ key: Buffer, now?: () => number }} options
 */
function createFieldTokens({ key, now = Date.now }) {
  /** @param {string} payload */
  const sign = (payload) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    /**
     * A new document's token.
     * @param {string} cohort who the document is for: "preview", "canary:<remote>" or "control:<remote>"
     */
    issue(cohort) {
      if (!COHORT.test(cohort)) throw new Error(`Not a field-data cohort: ${cohort}`);
      const payload = `${randomBytes(8).toString('hex')}.${Math.floor(now() / 1000) + TOKEN_LIFETIME_SECONDS}.${cohort}`;
      return `${payload}.${sign(payload)}`;
    },
    /**
     * The document id and cohort a token proves, if it is one this site signed and it has not expired.
     * @param {string | undefined} token
     * @returns {{ doc: string, cohort: string } | undefined}
     */
    verify(token) {
      if (token === undefined || !TOKEN.test(token)) return undefined;
      const [doc, expiry, cohort, signature] = /** @type {[string, string, string, string]} */ (token.split('.'));
      const expected = Buffer.from(sign(`${doc}.${expiry}.${cohort}`));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return Number(expiry) * 1000 >= now() ? { doc, cohort } : undefined;
    },
  };
}

/** @typedef {ReturnType<typeof createFieldTokens>} FieldTokens */

module.exports = { createFieldTokens, tokenKey, TOKEN_LIFETIME_SECONDS };

// The proof that a beacon comes from a document the site served: a token the server signs into each private document
// (a preview; a canary's and its control's documents), `<document id>.<expiry>.<cohort>.<network>.<canary>.<HMAC>`:
// the cohort says who the document was served to (a preview, or a side of a remote's canary), the network a keyed
// hash of the visitor's network (clientNetwork.js; never the address), the canary which of the remote's canaries it
// was for (a tab left open from an ended canary counts for no later one), all signed together, so a beacon cannot
// claim another side, network or canary than its document's. A shared document
// cannot carry one (a CDN would hand the same token to everyone), so records from shared documents are unsigned: they
// count on dashboards, but never in a decision (signedRecords.js). Every server and node that reads the same
// FIELD_DATA_DIR signs and checks with the same key: FIELD_DATA_SECRET, or a key made once in that folder.
const { createHmac, randomBytes, timingSafeEqual } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { COHORT, TOKEN } = require('@nativegtm/contract/fieldData');
const { createFileOnce } = require('@nativegtm/store/durableFiles');

/** How long a document's token is accepted: a tab left open for a day still reports its views. */
const TOKEN_LIFETIME_SECONDS = 24 * 3600;
/** The key's file in the field-data folder, readable by its owner only. */
const KEY_FILE = '.token-key';
/** What the key file holds: 32 random bytes in hex (and a newline, as `openssl rand -hex 32` writes). */
const KEY_TEXT = /^[0-9a-f]{64}\n?$/i;
/** The fewest bytes FIELD_DATA_SECRET may have: as many as the key made in the folder. */
const MIN_SECRET_BYTES = 32;

/**
 * Why `secret` cannot sign tokens, or undefined when it can: a shorter one could be guessed.
 * @param {string} secret
 */
function secretProblem(secret) {
  const bytes = Buffer.byteLength(secret);
  return bytes < MIN_SECRET_BYTES ? `must be at least ${MIN_SECRET_BYTES} bytes, not ${bytes}` : undefined;
}

/**
 * The signing key: the configured secret, or the field-data folder's own, made the first time any process needs it.
 * Made whole on disk before it has its name, and linked into place (durableFiles.js), so two processes starting at
 * once end up with the same key and none ever reads half of one. A key file that is not one (empty, cut short,
 * edited) is refused, never used: a short key would let anyone forge tokens.
 * @param {{ dir: string, secret?: string }} options
 * @returns {Buffer}
 */
function tokenKey({ dir, secret }) {
  if (secret !== undefined) {
    const problem = secretProblem(secret);
    if (problem) throw new Error(`FIELD_DATA_SECRET ${problem}`);
    return Buffer.from(secret);
  }
  const file = path.join(dir, KEY_FILE);
  fs.mkdirSync(dir, { recursive: true });
  createFileOnce(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return Buffer.from(readKeyFile(file));
}

/**
 * The key in the key file, or an error naming the file and what is wrong with it. Only its first bytes are read: a
 * huge file is refused as it is.
 * @param {string} file
 */
function readKeyFile(file) {
  const refuse = (/** @type {string} */ why) =>
    new Error(`${file} is not a field-data key (${why}): remove it to make a new one, or set FIELD_DATA_SECRET`);
  const text = Buffer.alloc(66);
  let length;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      length = fs.readSync(fd, text, 0, text.length, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw refuse(`it cannot be read: ${/** @type {NodeJS.ErrnoException} */ (error).code}`);
  }
  const key = text.subarray(0, length).toString('latin1');
  if (KEY_TEXT.test(key)) return key.slice(0, 64);
  if (length === 0) throw refuse('it is empty');
  throw refuse(
    length === text.length ? 'it is longer than 64 hex digits' : `its ${length} bytes are not 64 hex digits`,
  );
}

/** What a token says of a document, besides its id: whom it was for, from which network, in which canary. */
/** @typedef {{ cohort: string, network: string, canary?: string }} Issued */

/** A canary's key in a token (@nativegtm/store/canaryInStore canaryKey). */
const CANARY_KEY = /^[0-9a-z]{1,11}$/;
/** A token's canary field when it names none (a preview's, or a canary that had ended). */
const NO_CANARY = '-';

/**
 * @param {{ key: Buffer, now?: () => number }} options
 */
function createFieldTokens({ key, now = Date.now }) {
  /** @param {string} payload */
  const sign = (payload) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    /**
     * A new document's token.
     * @param {Issued} issued cohort: "preview", "canary:<remote>" or "control:<remote>"; network: the visitor's
     *   (clientNetwork.js), hashed with the key; canary: the canary's key, when the cohort is a side of one
     */
    issue({ cohort, network, canary }) {
      if (!COHORT.test(cohort)) throw new Error(`Not a field-data cohort: ${cohort}`);
      if (canary !== undefined && !CANARY_KEY.test(canary)) throw new Error(`Not a canary's key: ${canary}`);
      // A keyed hash, cut to 64 bits: enough to tell networks apart, and nothing to read an address back from.
      const net = createHmac('sha256', key).update(`network:${network}`).digest('hex').slice(0, 16);
      const expiry = Math.floor(now() / 1000) + TOKEN_LIFETIME_SECONDS;
      const payload = `${randomBytes(8).toString('hex')}.${expiry}.${cohort}.${net}.${canary ?? NO_CANARY}`;
      return `${payload}.${sign(payload)}`;
    },
    /**
     * What a token proves, if it is one this site signed and it has not expired: the document id, its cohort, its
     * network's hash, and its canary's key (none: it was issued for no canary).
     * @param {string | undefined} token
     * @returns {{ doc: string, cohort: string, net: string, canary?: string } | undefined}
     */
    verify(token) {
      if (token === undefined || !TOKEN.test(token)) return undefined;
      const cut = token.lastIndexOf('.');
      const payload = token.slice(0, cut);
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(token.slice(cut + 1));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const [doc, expiry, cohort, net, canary] = /** @type {[string, string, string, string, string]} */ (
        payload.split('.')
      );
      if (Number(expiry) * 1000 < now()) return undefined;
      return canary === NO_CANARY ? { doc, cohort, net } : { doc, cohort, net, canary };
    },
  };
}

/** @typedef {ReturnType<typeof createFieldTokens>} FieldTokens */

module.exports = { createFieldTokens, secretProblem, tokenKey, TOKEN_LIFETIME_SECONDS };

// What the deploy API reads of the environment, checked by envalid as the servers' configuration is: the store
// (RELEASES_DIR, or DATABASE_URL with RELEASES_BUCKET) and TRUSTED_PROXIES mean what they mean to `npm start`.
const fs = require('node:fs');
const envalid = require('envalid');
const { DEFAULT_DEPLOY_API_PORT } = require('@nativegtm/contract/deployApi');
const { ConfigError, checkStoreBackend, readEnv, SERVER_SPECS, wholeNumber } = require('@nativegtm/server/config');
const { ARCHIVE_LIMITS } = require('@nativegtm/store/releaseArchive');
const { parseTrust } = require('./oidc');

const DEPLOY_SPECS = {
  DEPLOY_API_PORT: { ...SERVER_SPECS.METRICS_PORT, default: DEFAULT_DEPLOY_API_PORT, desc: "the deploy API's port" },
  DEPLOY_API_HOST: envalid.str({
    default: '127.0.0.1',
    desc: 'the interface it listens on: loopback, behind the TLS proxy that faces the pipelines',
  }),
  DEPLOY_METRICS_HOST: envalid.str({ default: '127.0.0.1', desc: "the interface of the API's /metrics" }),
  DEPLOY_METRICS_PORT: {
    ...SERVER_SPECS.METRICS_PORT,
    default: 9466,
    desc: "the port of the API's /metrics, apart from the API's own (the pipelines never reach it)",
  },
  DEPLOY_MAX_ARCHIVE_BYTES: wholeNumber(1024)({
    default: ARCHIVE_LIMITS.maxBytes,
    desc: 'the bytes a published archive may have, packed, or unpacked as gunzip gives them (50 MB)',
  }),
  DEPLOY_MAX_ARCHIVE_ENTRIES: wholeNumber(1)({
    default: ARCHIVE_LIMITS.maxEntries,
    desc: 'the entries a published archive may have (5000)',
  }),
  DEPLOY_BODY_IDLE_MS: wholeNumber(100)({
    default: 15_000,
    desc: "how long a request's body (an archive's upload) may send nothing before it is refused with 408 (15000)",
  }),
  DEPLOY_AUTH_FAILURES: wholeNumber(1)({
    default: 10,
    desc: 'the credentials a network may get wrong in a minute; past them, its wrong ones get 429 with no reason (10)',
  }),
  DEPLOY_TRUST_FILE: envalid.str({
    default: undefined,
    desc: 'the CI issuers trusted, their audience and which jobs may do what (oidc.js); tokens only without it',
  }),
  DEPLOY_JWKS_COOLDOWN_MS: wholeNumber(0)({
    default: 30_000,
    desc: "the least time between two fetches of an issuer's keys, when a token names a key not yet known (30000)",
  }),
  DEPLOY_CANARY_LOOK_MS: wholeNumber(10)({
    default: 5000,
    desc: 'how often it looks for a canary a deploy API drove whose lease ran out (a restarted API, a lost node), to carry it on (5000)',
  }),
  RELEASES_DIR: SERVER_SPECS.RELEASES_DIR,
  // The field data a canary is judged on: the folder the servers write, or the database with DATABASE_URL.
  FIELD_DATA_DIR: SERVER_SPECS.FIELD_DATA_DIR,
  DATABASE_URL: SERVER_SPECS.DATABASE_URL,
  RELEASES_BUCKET: SERVER_SPECS.RELEASES_BUCKET,
  TRUSTED_PROXIES: SERVER_SPECS.TRUSTED_PROXIES,
  LOG_LEVEL: SERVER_SPECS.LOG_LEVEL,
  CHROME_PATH: envalid.str({ default: '/usr/bin/chromium', desc: "the gate's Chromium" }),
};

/**
 * @typedef {{ DEPLOY_API_PORT: number, DEPLOY_API_HOST: string, DEPLOY_METRICS_HOST?: string,
 *   DEPLOY_METRICS_PORT?: number, DEPLOY_MAX_ARCHIVE_BYTES: number, DEPLOY_MAX_ARCHIVE_ENTRIES: number,
 *   DEPLOY_BODY_IDLE_MS: number, DEPLOY_AUTH_FAILURES: number, DEPLOY_TRUST_FILE?: string,
 *   DEPLOY_JWKS_COOLDOWN_MS?: number, DEPLOY_CANARY_LOOK_MS: number,
 *   RELEASES_DIR?: string, FIELD_DATA_DIR?: string, DATABASE_URL?: string,
 *   RELEASES_BUCKET?: string, TRUSTED_PROXIES: string, LOG_LEVEL: string, CHROME_PATH: string }} DeployConfig
 */

/**
 * The deploy API's configuration from `env`; throws a ConfigError naming every bad variable.
 * @returns {DeployConfig}
 */
function deployConfig(env = process.env) {
  const read = readEnv(DEPLOY_SPECS, env);
  checkStoreBackend(read, { signs: false });
  if (read.DEPLOY_TRUST_FILE !== undefined) trustIn(read.DEPLOY_TRUST_FILE);
  return read;
}

/**
 * The issuers a trust file names, checked; a ConfigError naming the file and what is wrong otherwise.
 * @param {string} file
 */
function trustIn(file) {
  try {
    return parseTrust(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError([`  DEPLOY_TRUST_FILE=${JSON.stringify(file)}: ${/** @type {Error} */ (error).message}`]);
  }
}

module.exports = { deployConfig, trustIn };

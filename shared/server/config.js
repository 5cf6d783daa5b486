// Every environment variable the servers read, read once and checked against one schema (envalid), so a bad value
// stops `npm start` before it builds or listens, with one line per bad variable. Nothing else in the servers reads
// process.env: they are handed the values (docs/operating.md lists them).
const os = require('node:os');
const bytes = require('bytes');
const envalid = require('envalid');
const { SHELL_PORT, portsFrom } = require('@nativegtm/contract/ports');
const { LEVELS } = require('./observability/logger');
const { DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT } = require('./observability/metricsServer');
const { DEFAULT_ORIGIN, siteOrigin } = require('./siteMeta');
const { DEFAULT_HOUR_BYTES, DEFAULT_TOTAL_BYTES } = require('./fieldData/storeBudget');
const { DEFAULT_BUFFER_RECORDS, DEFAULT_RETENTION_DAYS } = require('./fieldData/recordStore');
const { LOOPBACK_ORIGINS, parseOverrideOrigins } = require('@nativegtm/contract/overrides');
const { secretProblem } = require('./fieldData/fieldTokens');
const { DEFAULT_TRUSTED_PROXIES, parseTrustedProxies } = require('./fieldData/clientNetwork');
const { parseBucketUrl } = require('@nativegtm/store/postgres/objectStore');

/** A whole number of at least `min`. */
const wholeNumber = (/** @type {number} */ min) =>
  envalid.makeValidator((input) => {
    const value = Number(input);
    if (!/^\d+$/.test(input.trim()) || value < min) throw new Error(`must be a whole number of at least ${min}`);
    return value;
  });

/** The shell's port, with room after it for every remote's (contract/ports.js). */
const portBase = envalid.makeValidator((input) => {
  const value = Number(input);
  const highest = Math.max(...Object.values(portsFrom(0)));
  if (!/^\d+$/.test(input.trim()) || value < 1 || value + highest > 65535) {
    throw new Error(`must be a port from 1 to ${65535 - highest} (the remotes take the ${highest} ports after it)`);
  }
  return value;
});

/** A TCP port; 0 lets the system choose one (tests). */
const tcpPort = envalid.makeValidator((input) => {
  const value = Number(input);
  if (!/^\d+$/.test(input.trim()) || value > 65535) throw new Error('must be a port from 0 to 65535');
  return value;
});

/** An absolute http(s) origin: the rule of siteMeta.js. */
const origin = envalid.makeValidator((input) => {
  try {
    return siteOrigin(input);
  } catch (error) {
    throw new Error(/** @type {Error} */ (error).message.replace(/^SITE_ORIGIN /, ''));
  }
});

/** A share from 0 to 1. */
const share = envalid.makeValidator((input) => {
  const value = Number(input);
  if (input.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new Error('must be a number from 0 to 1');
  return value;
});

/** A size in bytes, as a number or with a unit (`64KB`, `256MB`, `2GB`: powers of 1,024), of at least `min` bytes. */
const byteSize = (/** @type {number} */ min) =>
  envalid.makeValidator((input) => {
    const value = /^\s*\d+(\.\d+)?\s*([kmgt]?b)?\s*$/i.test(input) ? bytes.parse(input) : null;
    if (value === null || value < min)
      throw new Error(`must be a size of at least ${bytes.format(min)}, like 256MB or 2GB`);
    return Math.floor(value);
  });

/** Where overrides may come from (@nativegtm/contract/overrides): a list of origins, or off. */
const overrideOrigins = envalid.makeValidator((input) => parseOverrideOrigins(input));

/** A key that signs: long enough not to be guessed (fieldTokens.js). */
const secret = envalid.makeValidator((input) => {
  const problem = secretProblem(input);
  if (problem) throw new Error(problem);
  return input;
});

/** Variables whose value a problem's line never shows (it would end up in logs). */
const SECRETS = new Set(['FIELD_DATA_SECRET', 'DATABASE_URL']);

/** A PostgreSQL connection URL (its password is never shown). */
const databaseUrl = envalid.makeValidator((input) => {
  let url;
  try {
    url = new URL(input);
  } catch {
    throw new Error('must be a URL, like postgresql://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new Error('must be a postgresql:// URL, like postgresql://user:password@host:5432/database');
  return input;
});

/** Where a store on PostgreSQL keeps its releases' files: s3://bucket/prefix. */
const bucketUrl = envalid.makeValidator((input) => {
  parseBucketUrl(input);
  return input;
});

/** The proxies whose X-Forwarded-For is believed (fieldData/clientNetwork.js): checked here, kept as written. */
const trustedProxies = envalid.makeValidator((input) => {
  parseTrustedProxies(input);
  return input;
});

/** What the servers read, with the defaults `npm start` runs with. */
const SERVER_SPECS = {
  PORT_BASE: portBase({ default: SHELL_PORT, desc: "the shell's port; the remotes take the ports after it" }),
  HOST: envalid.str({ default: undefined, desc: 'the interface the site listens on (all by default)' }),
  WEB_CONCURRENCY: wholeNumber(1)({ default: undefined, desc: 'workers (one per core by default)' }),
  LOG_LEVEL: envalid.str({ choices: LEVELS, default: 'info' }),
  METRICS_HOST: envalid.str({ default: DEFAULT_METRICS_HOST }),
  METRICS_PORT: tcpPort({ default: DEFAULT_METRICS_PORT }),
  SITE_ORIGIN: origin({ default: DEFAULT_ORIGIN, desc: 'the public origin of canonical URLs and link previews' }),
  REMOTES_FILE: envalid.str({ default: undefined, desc: "the shell's /remotes.json, instead of dist/remotes.json" }),
  RELEASES_DIR: envalid.str({ default: undefined, desc: 'the release store (releases/ at the root by default)' }),
  DOCUMENTS_DIR: envalid.str({
    default: undefined,
    desc: "nginx's collector: where it composes the documents for everyone, nginx:config's --documents (none: nginx composes each)",
  }),
  DATABASE_URL: databaseUrl({
    default: undefined,
    desc: 'the release store on PostgreSQL, with RELEASES_BUCKET (the folder RELEASES_DIR by default)',
  }),
  RELEASES_BUCKET: bucketUrl({
    default: undefined,
    desc: "where a store on PostgreSQL keeps its releases' files: s3://bucket/prefix, with DATABASE_URL",
  }),
  FIELD_DATA_DIR: envalid.str({
    default: undefined,
    desc: 'where field data is kept (field-data/ at the root by default)',
  }),
  FIELD_DATA_SECRET: secret({
    default: undefined,
    desc: "the key that signs private documents' field-data tokens (a key kept in FIELD_DATA_DIR by default)",
  }),
  FIELD_DATA_MAX_HOUR: byteSize(1024)({
    default: DEFAULT_HOUR_BYTES,
    desc: 'the bytes of field data FIELD_DATA_DIR takes in one hour at most, all writers together (256MB)',
  }),
  FIELD_DATA_MAX: byteSize(1024)({
    default: DEFAULT_TOTAL_BYTES,
    desc: 'the bytes of field data FIELD_DATA_DIR holds at most (2GB)',
  }),
  FIELD_DATA_BUFFER: wholeNumber(1)({
    default: DEFAULT_BUFFER_RECORDS,
    desc: 'the field-data records a process holds while the database cannot take them, with DATABASE_URL (10000)',
  }),
  FIELD_DATA_RETENTION_DAYS: wholeNumber(1)({
    default: DEFAULT_RETENTION_DAYS,
    desc: 'the days of field data kept (7)',
  }),
  RUM_SAMPLE_RATE: share({ default: 1, desc: 'the share of page views whose field data is collected' }),
  COLLECTOR_PORT: tcpPort({ default: 9465, desc: "the field-data collector's loopback port, behind nginx" }),
  OVERRIDE_ORIGINS: overrideOrigins({
    default: parseOverrideOrigins(LOOPBACK_ORIGINS),
    desc: `the dev servers a browser may override a remote with: origins, port * for any, or off (${LOOPBACK_ORIGINS})`,
  }),
  TRUSTED_PROXIES: trustedProxies({
    default: DEFAULT_TRUSTED_PROXIES,
    desc: "the proxies or CDN in front whose X-Forwarded-For names the visitor's network (loopback by default)",
  }),
  FRAGMENT_TIMEOUT_MS: wholeNumber(0)({ default: undefined, desc: "how long a document waits for a page's HTML" }),
};

/** Thrown with every bad variable's line. */
class ConfigError extends Error {
  /** @param {string[]} problems */
  constructor(problems) {
    super(`Invalid environment:\n${problems.join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * The values of `specs` in `env`, checked; empty variables count as unset (as a shell's `VAR= npm start` means).
 * @template {Record<string, envalid.ValidatorSpec<unknown>>} S
 * @param {S} specs
 * @param {NodeJS.ProcessEnv} env
 * @returns {Readonly<envalid.CleanedEnv<S>>}
 */
function readEnv(specs, env) {
  /** @type {Record<string, string>} */
  const given = {};
  for (const name of Object.keys(specs)) {
    const value = env[name];
    if (value !== undefined && value !== '') given[name] = value;
  }
  return envalid.cleanEnv(given, specs, {
    reporter: ({ errors }) => {
      const problems = Object.entries(errors).map(([name, error]) => {
        const value = SECRETS.has(name) ? '(not shown)' : JSON.stringify(given[name] ?? '');
        return `  ${name}=${value}: ${error?.message ?? 'invalid'}`;
      });
      if (problems.length > 0) throw new ConfigError(problems);
    },
  });
}

/**
 * Refuses a store half on a database: DATABASE_URL and RELEASES_BUCKET come together or not at all. With a database,
 * many nodes serve the site, and each must check the tokens the others sign: FIELD_DATA_SECRET too, where `signs`.
 * @param {{ DATABASE_URL?: string, RELEASES_BUCKET?: string, FIELD_DATA_SECRET?: string }} read
 * @param {{ signs: boolean }} options
 */
function checkStoreBackend(read, { signs }) {
  if (Boolean(read.DATABASE_URL) !== Boolean(read.RELEASES_BUCKET)) {
    const [given, missing] = read.DATABASE_URL
      ? ['DATABASE_URL', 'RELEASES_BUCKET']
      : ['RELEASES_BUCKET', 'DATABASE_URL'];
    throw new ConfigError([
      `  ${missing}: must be set with ${given} (a store on PostgreSQL keeps its files in a bucket)`,
    ]);
  }
  if (signs && read.DATABASE_URL && !read.FIELD_DATA_SECRET) {
    throw new ConfigError([
      '  FIELD_DATA_SECRET: must be set with DATABASE_URL (every node must check the tokens the others sign)',
    ]);
  }
}

/**
 * The servers' configuration from `env`; throws a ConfigError naming every bad variable.
 * @param {NodeJS.ProcessEnv} [env]
 */
function serverConfig(env = process.env) {
  const read = readEnv(SERVER_SPECS, env);
  checkStoreBackend(read, { signs: true });
  return { ...read, WEB_CONCURRENCY: read.WEB_CONCURRENCY ?? os.availableParallelism() };
}

/** @typedef {ReturnType<typeof serverConfig>} ServerConfig */

/**
 * For a command's start: the configuration, or its problems on stderr and exit 1 (a refusal, not a crash).
 * @template T
 * @param {() => T} read
 * @returns {T}
 */
function configOrExit(read) {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return process.exit(1);
  }
}

module.exports = { ConfigError, SERVER_SPECS, checkStoreBackend, configOrExit, readEnv, serverConfig, wholeNumber };

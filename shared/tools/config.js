// What the tools read of the environment, checked by the servers' schema (@nativegtm/server/config) where the
// variable is the servers' too, so a value means the same to `npm run release` as to `npm start`.
const envalid = require('envalid');
const { checkStoreBackend, readEnv, SERVER_SPECS } = require('@nativegtm/server/config');

const TOOLS_SPECS = {
  PORT_BASE: SERVER_SPECS.PORT_BASE,
  RELEASES_DIR: SERVER_SPECS.RELEASES_DIR,
  DATABASE_URL: SERVER_SPECS.DATABASE_URL,
  RELEASES_BUCKET: SERVER_SPECS.RELEASES_BUCKET,
  COLLECTOR_PORT: SERVER_SPECS.COLLECTOR_PORT,
  RUM_SAMPLE_RATE: SERVER_SPECS.RUM_SAMPLE_RATE,
  FIELD_DATA_DIR: SERVER_SPECS.FIELD_DATA_DIR,
  OVERRIDE_ORIGINS: SERVER_SPECS.OVERRIDE_ORIGINS,
  // Unset means "where this machine's npm start runs" (PORT_BASE), not the servers' default origin.
  SITE_ORIGIN: { ...SERVER_SPECS.SITE_ORIGIN, default: undefined },
  CHROME_PATH: envalid.str({ default: '/usr/bin/chromium', desc: "the release gate's Chromium" }),
};

/** The tools' configuration from `env`; throws a ConfigError naming every bad variable. */
function toolsConfig(env = process.env) {
  const read = readEnv(TOOLS_SPECS, env);
  checkStoreBackend(read, { signs: false });
  return read;
}

module.exports = { toolsConfig };

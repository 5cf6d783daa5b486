// The deploy API's configuration for a test: on loopback, on ports the system picks, its limits and log as given.
const path = require('node:path');

/**
 * @param {{ storeDir?: string } & Partial<import('../config').DeployConfig>} options storeDir: a folder store (its
 *   field data inside it); the rest overrides
 * @returns {import('../config').DeployConfig}
 */
function testApiConfig({ storeDir, ...overrides }) {
  return {
    DEPLOY_API_PORT: 0,
    DEPLOY_API_HOST: '127.0.0.1',
    DEPLOY_METRICS_PORT: 0,
    DEPLOY_MAX_ARCHIVE_BYTES: 1024 * 1024,
    DEPLOY_MAX_ARCHIVE_ENTRIES: 100,
    DEPLOY_BODY_IDLE_MS: 15_000,
    DEPLOY_AUTH_FAILURES: 10,
    // A canary an API stopped with is carried on within moments of its lease running out.
    DEPLOY_CANARY_LOOK_MS: 100,
    ...(storeDir === undefined ? {} : { RELEASES_DIR: storeDir, FIELD_DATA_DIR: path.join(storeDir, 'field-data') }),
    TRUSTED_PROXIES: 'loopback',
    LOG_LEVEL: 'silent',
    CHROME_PATH: '/usr/bin/chromium',
    ...overrides,
  };
}

module.exports = { testApiConfig };

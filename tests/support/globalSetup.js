const { startTestSite } = require('./testSite');
const { ensureSystemTools, toolsFor } = require('./systemTools');
const { enginesUnderTest } = require('./engines');

/**
 * Where globalTeardown finds the site: jest runs both in its main process, whose globals test workers do not see.
 * @typedef {typeof globalThis & { __SITE__?: import('./testSite').TestSite }} SetupGlobals
 */

module.exports = async function globalSetup() {
  /** @param {string} line */
  const log = (line) => process.stdout.write(`\n${line}`);
  ensureSystemTools({ tools: toolsFor(enginesUnderTest()), log });
  const site = await startTestSite({ log });
  /** @type {SetupGlobals} */ (globalThis).__SITE__ = site;
  // Test workers start after this and inherit the environment.
  process.env.SITE_PORTS = JSON.stringify(site.ports);
  process.env.SITE_FIELD_DATA_DIR = site.fieldDataDir;
};

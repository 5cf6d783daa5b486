const { startTestSite } = require('./testSite');
const { ensureSystemTools, toolsFor } = require('./systemTools');
const { enginesUnderTest } = require('./engines');

module.exports = async function globalSetup() {
  const log = (line) => process.stdout.write(`\n${line}`);
  ensureSystemTools({ tools: toolsFor(enginesUnderTest()), log });
  const site = await startTestSite({ log });
  globalThis.__SITE__ = site;
  // Test workers start after this and inherit the environment.
  process.env.SITE_PORTS = JSON.stringify(site.ports);
};

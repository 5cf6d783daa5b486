const { startTestSite } = require('./testSite');
const { ensureSystemTools } = require('./systemTools');

module.exports = async function globalSetup() {
  ensureSystemTools({ log: (line) => process.stdout.write(`\n${line}`) });
  const site = await startTestSite({ log: (line) => process.stdout.write(`\n${line}`) });
  globalThis.__SITE__ = site;
  // Test workers start after this and inherit the environment.
  process.env.SITE_PORTS = JSON.stringify(site.ports);
};

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { deployables } = require('@nativegtm/shared/server/site.js');
const { buildIfNeeded } = require('@nativegtm/shared/server/build-if-needed.js');
const { startSite } = require('@nativegtm/shared/server/run-site.js');
const { testPorts } = require('./ports');

const remoteKeys = {
  'candidates-mfe': 'candidates',
  'employers-mfe': 'employers',
  'jobs-mfe': 'jobs',
  'coming-soon-mfe': 'comingSoon',
};

module.exports = async function globalSetup() {
  buildIfNeeded(deployables, { log: (line) => process.stdout.write(`\n${line}`) });

  // The shipped remotes.json names the npm start ports; the test site points at its own.
  const remotesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-test-')), 'remotes.json');
  const remotes = Object.fromEntries(
    Object.entries(remoteKeys).map(([pkg, key]) => [key, `http://localhost:${testPorts[pkg]}/mf-manifest.json`]),
  );
  fs.writeFileSync(remotesFile, JSON.stringify(remotes, null, 2));

  globalThis.__SITE__ = await startSite(deployables, { ports: testPorts, remotesFile });
  process.env.SITE_PORTS = JSON.stringify(testPorts);
};

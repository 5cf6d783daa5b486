// The site the gate checks a release in: the live shell, the other remotes' live releases and the candidate release
// in place of its remote's, served by the built-in server on free loopback ports. Nothing visitors reach changes.
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { deployables } = require('@nativegtm/server/deployables');
const { startSite } = require('@nativegtm/server/startSite');

/** A port nothing listens on now (the system's choice). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(address.port));
    });
  });
}

/**
 * @param {{ storeDir: string, remote: string, releaseDir: string }} options
 * @returns {Promise<{ origin: string, stop: () => Promise<void> }>}
 */
async function startGateSite({ storeDir, remote, releaseDir }) {
  const candidate = deployables.find((deployable) => deployable.remote === remote);
  if (!candidate) throw new Error(`no deployable for remote "${remote}"`);
  /** @type {Record<string, number>} */
  const ports = {};
  for (const deployable of deployables) ports[deployable.name] = await freePort();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-gate-'));
  const remotesFile = path.join(scratch, 'remotes.json');
  const portOf = (/** @type {{ package: string }} */ page) => ports[page.package] ?? 0;
  fs.writeFileSync(remotesFile, JSON.stringify(shippedRemotes({ host: '127.0.0.1', portOf }), null, 2));
  const origin = `http://127.0.0.1:${ports.shell}`;
  const site = await startSite(deployables, {
    ports,
    roots: { [candidate.name]: releaseDir },
    remotesFile,
    origin,
    releasesDir: storeDir,
    // The gate's browser is not a visitor: its page views are no field data, and this site takes none (its shell
    // would answer the beacons 405, an error in the console the gate reads).
    sampleRate: 0,
  });
  return {
    origin,
    stop: async () => {
      await site.stop();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

module.exports = { startGateSite };

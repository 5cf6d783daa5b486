// The site the gate checks a release in: the live shell, the other remotes' live releases and the candidate release
// in place of its remote's, served by the built-in server on free loopback ports. Nothing visitors reach changes.
// Composed as for visitors but one thing: a document waits for its page's HTML as long as a busy machine may need,
// not the visitors' fraction of a second. (A visitor is better served the page rendered in the browser than a late
// document; the gate, which reads the document to judge the release, is not.)
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { deployables } = require('@nativegtm/server/deployables');
const { PortInUseError } = require('@nativegtm/server/httpServer');
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

/** How many sets of free ports the gate tries before it gives up: another process may take one in between. */
const PORT_TRIES = 5;

/**
 * How long a document of the gate's site waits for its page's HTML (visitors': 400 ms). On a machine whose two cores
 * were busy with a build, the fragments of a cold site took up to a second; ten leave room for worse, and a document
 * still without its HTML then says it timed out (serverHtml.js).
 */
const GATE_FRAGMENT_TIMEOUT_MS = 10_000;

/**
 * @param {{ storeDir: string, remote: string, releaseDir: string, fragmentTimeoutMs?: number }} options
 *   fragmentTimeoutMs: GATE_FRAGMENT_TIMEOUT_MS unless given
 * @returns {Promise<{ origin: string, stop: () => Promise<void> }>}
 */
async function startGateSite({ storeDir, remote, releaseDir, fragmentTimeoutMs = GATE_FRAGMENT_TIMEOUT_MS }) {
  const candidate = deployables.find((deployable) => deployable.remote === remote);
  if (!candidate) throw new Error(`no deployable for remote "${remote}"`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-gate-'));
  const remotesFile = path.join(scratch, 'remotes.json');
  for (let tries = 1; ; tries += 1) {
    // Ports free a moment ago: between that moment and the site's listening, any process may take one (on a busy
    // machine, an outgoing connection's own port), and the site then refuses to start, whole. Another set is tried.
    /** @type {Record<string, number>} */
    const ports = {};
    for (const deployable of deployables) ports[deployable.name] = await freePort();
    const portOf = (/** @type {{ package: string }} */ page) => ports[page.package] ?? 0;
    fs.writeFileSync(remotesFile, JSON.stringify(shippedRemotes({ host: '127.0.0.1', portOf }), null, 2));
    const origin = `http://127.0.0.1:${ports.shell}`;
    let site;
    try {
      site = await startSite(deployables, {
        ports,
        roots: { [candidate.name]: releaseDir },
        remotesFile,
        origin,
        releasesDir: storeDir,
        fragmentTimeoutMs,
        // The gate's browser is not a visitor: its page views are no field data, and this site takes none (its
        // shell would answer the beacons 405, an error in the console the gate reads).
        sampleRate: 0,
      });
    } catch (error) {
      if (error instanceof PortInUseError && tries < PORT_TRIES) continue;
      fs.rmSync(scratch, { recursive: true, force: true });
      throw error;
    }
    const started = site;
    return {
      origin,
      stop: async () => {
        await started.stop();
        fs.rmSync(scratch, { recursive: true, force: true });
      },
    };
  }
}

module.exports = { startGateSite };

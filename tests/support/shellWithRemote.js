// A second copy of the shell, on its own port, whose remotes.json sends one page's remote elsewhere (to a remote
// that is down, or one a test can take offline) and the others to the test site's remotes.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { deployables } = require('@nativegtm/server/deployables');
const { startSite } = require('@nativegtm/server/startSite');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { createMetrics } = require('@nativegtm/server/observability/metrics');

/**
 * @param {{ port: number, ports: Record<string, number>, remote: string, manifestUrl: string, releasesDir?: string }}
 *   options port: the shell's; ports: the test site's, by package; remote: the remote's name in remotes.json ('jobs');
 *   manifestUrl: where its mf-manifest.json is said to be; releasesDir: a release store the shell's server reads (a
 *   node's copy: it vouches for the lists of the releases live there)
 * @returns {Promise<{ origin: string, metrics: import('@nativegtm/server/observability/metrics').Metrics,
 *   stop: () => Promise<void> }>} metrics: what the shell's server counts (browsers' reports among it)
 */
async function startShellWithRemote({ port, ports, remote, manifestUrl, releasesDir }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-shell-'));
  const remotesFile = path.join(dir, 'remotes.json');
  // The test site's ports have every page's package.
  const remotes = shippedRemotes({ portOf: (page) => /** @type {number} */ (ports[page.package]) });
  fs.writeFileSync(remotesFile, JSON.stringify({ ...remotes, [remote]: manifestUrl }));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  const metrics = createMetrics();
  let site;
  try {
    const shell = deployables.filter((deployable) => deployable.role === 'host');
    site = await startSite(shell, { ports: { shell: port }, remotesFile, metrics, releasesDir });
  } catch (error) {
    remove();
    throw error;
  }
  return {
    origin: `http://localhost:${port}`,
    metrics,
    async stop() {
      await site.stop();
      remove();
    },
  };
}

module.exports = { startShellWithRemote };

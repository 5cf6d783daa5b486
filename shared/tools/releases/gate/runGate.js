// The gate a release passes before it is made live: checked composed with the live shell and the other live
// remotes (gateSite.js), on loopback, by its files (buildChecks.js) and in headless Chromium (browserChecks.js).
const path = require('node:path');
const { pages } = require('@nativegtm/contract/pages');
const { checkBuild } = require('@nativegtm/store/publish');
const { metadataCheck, readFederationManifest } = require('@nativegtm/store/releaseFiles');
const { singletonsCheck } = require('./buildChecks');
const { browserChecks } = require('./browserChecks');
const { startGateSite } = require('./gateSite');

/** @typedef {import('@nativegtm/store/records').GateResult} GateResult */

/**
 * @param {{ storeDir: string, remote: string, releaseDir: string, chromiumPath: string, now?: () => Date }} options
 *   chromiumPath: the Chromium the browser checks run in (CHROME_PATH)
 * @returns {Promise<GateResult>}
 */
async function runGate({ storeDir, remote, releaseDir, chromiumPath, now = () => new Date() }) {
  const at = now().toISOString();
  const metadata = metadataCheck(releaseDir, remote);
  if (!metadata.ok) return { at, passed: false, checks: [metadata] };
  const page = pages.find((candidate) => candidate.remote === remote);
  const other = pages.find((candidate) => candidate.remote !== remote);
  if (!page || !other) return { at, passed: false, checks: [{ name: 'metadata', ok: false, detail: 'unknown page' }] };
  const site = await startGateSite({ storeDir, remote, releaseDir: path.resolve(releaseDir) });
  try {
    const { checks, provided } = await browserChecks({
      origin: site.origin,
      remote,
      route: page.route,
      otherRoute: other.route,
      buildId: checkBuild(releaseDir, remote),
      chromiumPath,
    });
    const singletons = provided
      ? singletonsCheck(readFederationManifest(releaseDir), provided)
      : { name: 'shared singletons', ok: false, detail: "the live shell's federation runtime could not be read" };
    const all = [metadata, singletons, ...checks];
    return { at, passed: all.every((check) => check.ok), checks: all };
  } finally {
    await site.stop();
  }
}

module.exports = { runGate };

// The gate a release passes before it is made live: checked composed with the live shell and the other live
// remotes (gateSite.js), on loopback, by its files (buildChecks.js), by the document the site composes (serverHtml.js)
// and in headless Chromium (browserChecks.js). It judges the release, not the machine (verdict.js): a check that could
// not judge, or a site that did not come up, never makes it pass or fail.
const path = require('node:path');
const { pages } = require('@nativegtm/contract/pages');
const { checkBuild } = require('@nativegtm/store/publish');
const { metadataCheck, readFederationManifest } = require('@nativegtm/store/releaseFiles');
const { singletonsCheck } = require('./buildChecks');
const { browserChecks } = require('./browserChecks');
const { startGateSite } = require('./gateSite');
const { serverHtmlCheck } = require('./serverHtml');
const { couldNotJudge, verdictOf } = require('./verdict');

/** @typedef {import('@nativegtm/store/records').GateResult} GateResult */
/** @typedef {import('./verdict').Outcome} Outcome */

/**
 * @param {{ storeDir: string, remote: string, releaseDir: string, chromiumPath: string, fragmentTimeoutMs?: number,
 *   now?: () => Date }} options
 *   chromiumPath: the Chromium the browser checks run in (CHROME_PATH); fragmentTimeoutMs: how long the gate's site
 *   waits for a page's HTML (gateSite.js's unless given)
 * @returns {Promise<GateResult>} rejects with the gate's Undecided when it could not judge
 */
async function runGate({ storeDir, remote, releaseDir, chromiumPath, fragmentTimeoutMs, now = () => new Date() }) {
  const at = now().toISOString();
  const metadata = metadataCheck(releaseDir, remote);
  if (!metadata.ok) return { at, passed: false, checks: [metadata] };
  const page = pages.find((candidate) => candidate.remote === remote);
  const other = pages.find((candidate) => candidate.remote !== remote);
  if (!page || !other) return { at, passed: false, checks: [{ name: 'metadata', ok: false, detail: 'unknown page' }] };
  let site;
  try {
    site = await startGateSite({ storeDir, remote, releaseDir: path.resolve(releaseDir), fragmentTimeoutMs });
  } catch (error) {
    throw couldNotJudge(`its site did not come up (${/** @type {Error} */ (error).message})`);
  }
  try {
    const { origin } = site;
    const buildId = checkBuild(releaseDir, remote);
    const serverHtml = await serverHtmlCheck({ origin, remote, route: page.route, buildId });
    const { hydration, navigation, provided } = await browserChecks({
      origin,
      route: page.route,
      otherRoute: other.route,
      chromiumPath,
    });
    const name = 'shared singletons';
    /** @type {Outcome} */
    const singletons = provided
      ? singletonsCheck(readFederationManifest(releaseDir), provided)
      : 'undecided' in hydration
        ? { name, undecided: 'not read (hydration could not judge)' }
        : { name, ok: false, detail: "the live shell's federation runtime could not be read" };
    return verdictOf(at, [metadata, singletons, serverHtml, hydration, navigation]);
  } finally {
    await site.stop();
  }
}

module.exports = { runGate };

// Starts the composed site with the npm start code on a port base (default 4100), so tests and screenshots never
// collide with a running `npm start`. The shell's /remotes.json is pointed at the shifted remote ports.
//
// Port plan of one test run, relative to TEST_PORT_BASE (B); two runs need bases at least 340 apart. Files
// that jest runs side by side each have their own ports:
//   B..B+4 the test site · B+20..B+24 nginx (serving.test) · B+30..B+41 server.test
//   B+42..B+46 a site, B+47 its metrics, B+48 a remote that is down (operations.test)
//   B+50..B+54 a second site, B+60..B+62 test remotes, B+63..B+67 nginx (resilience.test)
//   B+55..B+59 nginx (malformedRequests.test)
//   B+70..B+74 a third site, B+75..B+76 test remotes, B+80..B+84 nginx (serverRenderingHttp.test), with a 1.2 s
//   fragment timeout B+15..B+19 (the built-in server) and B+25..B+29 (nginx), and for a failing remote's tests
//   B+5..B+9 (the built-in server) and, once that is done, B+15..B+19 (nginx)
//   B+85..B+89 nginx composing per request, B+330..B+334 nginx sending its collector's files, B+91 their jobs remote
//   (nginxFragmentCache.test)
//   B+95..B+96 a shell and a remote that can go offline (engines.test; not B+90: browsers refuse port 4190)
//   B+97 a shell whose jobs remote is down, at B+98 (npm run screenshots)
//   B+100..B+104 a fourth site, B+105..B+106 test remotes, B+110..B+114 nginx (serverRenderingBrowser.test), and a
//   server composing per request at B+315..B+319 (the built-in one) or B+325..B+329 (nginx)
//   B+115..B+119 nginx and its field-data collector (fieldDataServers.test)
//   B+120..B+124 a fifth site, B+125..B+129 nginx (cspOrigins.test)
//   B+130..B+134 npm start's cluster, B+135 its metrics (cluster.test)
//   B+140..B+144 a site and B+145..B+149 nginx sharing one release store, B+208 the deploy API in front of it and
//   B+209 its metrics (releases.test)
//   B+150..B+154 a site and B+155..B+159 nginx whose jobs remote runs canaries, B+160 Varnish (canary.test)
//   B+161..B+165 a site and B+166..B+170 nginx, B+171 a jobs dev server that overrides it (devOverride.test)
//   B+172..B+176 a site and B+177..B+181 nginx sharing one release store (previewGate.test)
//   B+182..B+186 a site and B+187..B+191 nginx sharing one release store (releaseChoice.test)
//   B+192..B+196 npm start, B+197..B+201 nginx, both with a small field-data budget (fieldDataBudget.test)
//   B+202..B+206 npm start on a store on PostgreSQL, B+207 its metrics (storeBackends.test)
//   B+210..B+214 HAProxy in front of many nodes, B+220..B+254 the nodes, 10 ports each, B+255..B+258 two deploy APIs
//   and their metrics (manyNodes.test)
//   B+260..B+265 the site of a scratch copy with a generated fifth page (newPage.test)
//   B+266..B+267 the deploy API and its metrics on a folder store, B+268..B+269 on PostgreSQL (deployPipeline.test)
//   B+270..B+314 `npm run topology`'s HAProxy, Varnish and nodes (topologyCommand.test)
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { deployables } = require('@nativegtm/server/deployables');
const { buildIfNeeded } = require('@nativegtm/tools/buildIfNeeded');
const { startSite } = require('@nativegtm/server/startSite');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { portsFrom } = require('@nativegtm/contract/ports');
const { createLogger } = require('@nativegtm/server/observability/logger');

/**
 * @param {{ base?: number, log?: (line: string) => void, logger?: import('@nativegtm/server/observability/logger').Logger,
 *   metrics?: import('@nativegtm/server/observability/metrics').Metrics, fragmentTimeoutMs?: number }} [options]
 *   base: the shell's port, the remotes' after it; logger, metrics: where the site's servers log and count, for a test
 *   that waits on what they say; fragmentTimeoutMs: how long a document waits for a page's HTML
 */
async function startTestSite({
  base = Number(process.env.TEST_PORT_BASE || 4100),
  // Not the composer's 400 ms: no spec on this site is about the timeout (serverRenderingHttp's own servers are), and
  // on a busy 2-core machine a first document could miss it and come without its page's HTML.
  fragmentTimeoutMs = 3000,
  log = console.log,
  logger: given,
  metrics,
} = {}) {
  buildIfNeeded(deployables, { log });
  const ports = portsFrom(base);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-site-'));
  const remotesFile = path.join(dir, 'remotes.json');
  // Visitors' field data from every test's browser, as `npm start` keeps it.
  const fieldDataDir = path.join(dir, 'field-data');
  // portsFrom has every page's package.
  const remotes = shippedRemotes({ portOf: (page) => /** @type {number} */ (ports[page.package]) });
  fs.writeFileSync(remotesFile, JSON.stringify(remotes, null, 2));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  let site;
  try {
    // Quiet unless asked: LOG_LEVEL=info npm test shows the test site's request and fragment lines.
    const logger = given ?? (process.env.LOG_LEVEL ? createLogger({ level: process.env.LOG_LEVEL }) : undefined);
    site = await startSite(deployables, {
      ports,
      remotesFile,
      logger,
      metrics,
      fragmentTimeoutMs,
      fieldData: { dir: fieldDataDir },
    });
  } catch (error) {
    remove();
    throw error;
  }
  return {
    ...site,
    ports,
    remotesFile,
    fieldDataDir,
    async stop() {
      await site.stop();
      remove();
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof startTestSite>>} TestSite */

module.exports = { startTestSite };

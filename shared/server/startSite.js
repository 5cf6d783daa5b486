// Serves the five production builds, one server per deployable on its own port. Used by `npm start` and by the
// integration tests, so the tests exercise exactly what visitors get.
const path = require('node:path');
const { createRemoteServer } = require('./remoteServer');
const { createShellServer } = require('./shellServer');
const { listen, close, drain } = require('./httpServer');
const { DEFAULT_ORIGIN, siteOrigin } = require('./siteMeta');
const { storeLayout } = require('@nativegtm/store/layout');
const { deployables: siteDeployables } = require('./deployables');

/**
 * Starts each deployable given on `port` (or the override in `ports`). All or nothing: if one port is taken, the
 * servers already started are closed again and the error says which port.
 * @param {import('./deployables').Deployable[]} deployables
 * @param {{ ports?: Record<string, number>, host?: string, roots?: Record<string, string>, remotesFile?: string,
 *   origin?: string, fragmentTimeoutMs?: number, logger?: import('./observability/logger').Logger,
 *   metrics?: import('./observability/metrics').Metrics, releasesDir?: string, storeCopy?: boolean,
 *   fieldData?: import('./fieldData/fieldCollector').FieldDataOptions, sampleRate?: number,
 *   overrideOrigins?: readonly import('@nativegtm/contract/overrides').OriginPattern[] }} [options]
 *   host: the interface to listen on (all unless given). remotesFile: serve the shell's /remotes.json from this file
 *   instead of dist/remotes.json. origin: the site's public origin (absolute URLs in documents, robots.txt,
 *   sitemap.xml). fragmentTimeoutMs: how long a document waits for a page's server-rendered HTML before it is sent
 *   without it. logger: where request and fragment lines go (nowhere unless given). metrics: where every server counts (observability/metrics.js). releasesDir: the
 *   release store (docs/releasing.md): each remote serves its live release, the shell previews; without it, dist/;
 *   storeCopy: it is this node's copy of the store on PostgreSQL (docs/many-nodes.md).
 *   fieldData: where the shell keeps visitors' field data, and its tokens' key (none taken without it); sampleRate:
 *   the share of page views measured; overrideOrigins: OVERRIDE_ORIGINS (loopback unless given).
 */
async function startSite(
  deployables,
  {
    ports = {},
    host,
    roots = {},
    remotesFile,
    origin = DEFAULT_ORIGIN,
    fragmentTimeoutMs,
    logger,
    metrics,
    releasesDir,
    storeCopy,
    fieldData,
    sampleRate,
    overrideOrigins,
  } = {},
) {
  // Every page of the site, whichever servers start here: a shell started alone (its remotes served elsewhere) still
  // composes their pages.
  const routes = siteDeployables.filter((d) => d.role === 'remote').map((d) => ({ route: d.route, remote: d.remote }));
  /** @type {{ deployable: import('./deployables').Deployable, port: number, server: import('node:http').Server }[]} */
  const running = [];
  // The remotes first: the shell reads every remote's live build as it starts (its field data's labels), and in a
  // cluster's first worker nothing else serves them yet.
  const remotesFirst = [
    ...deployables.filter((d) => d.role === 'remote'),
    ...deployables.filter((d) => d.role !== 'remote'),
  ];
  // Remotes served from a folder given explicitly: the shell vouches for the list each one's server answers.
  const servedFromFolders = deployables
    .filter((d) => d.role === 'remote' && roots[d.name] !== undefined)
    .map((d) => /** @type {string} */ (d.remote));
  try {
    for (const deployable of remotesFirst) {
      const port = ports[deployable.name] ?? deployable.port;
      const root = roots[deployable.name] ?? path.join(deployable.dir, 'dist');
      // A root given explicitly is served as it is (the gate's candidate release), never the store's live release.
      const fromStore = releasesDir !== undefined && !roots[deployable.name];
      const server =
        deployable.role === 'host'
          ? createShellServer({
              root,
              remotesFile,
              compose: { routes, origin: siteOrigin(origin), fragmentTimeoutMs, sampleRate, overrideOrigins },
              name: deployable.name,
              logger,
              metrics,
              releasesDir: fromStore ? releasesDir : undefined,
              servedFromFolders,
              storeCopy,
              fieldData,
            })
          : createRemoteServer({
              root,
              name: deployable.name,
              logger,
              metrics,
              releases: fromStore ? storeLayout(releasesDir, deployable.remote) : undefined,
            });
      await listen(server, port, deployable.name, host);
      running.push({ deployable, port, server });
    }
  } catch (error) {
    await Promise.all(running.map(({ server }) => close(server)));
    throw error;
  }
  return {
    servers: running,
    stop: () => Promise.all(running.map(({ server }) => close(server))),
    /** Stops taking connections and resolves once every request under way has been answered (httpServer.drain). */
    drain: () => Promise.all(running.map(({ server }) => drain(server))),
  };
}

module.exports = { startSite };

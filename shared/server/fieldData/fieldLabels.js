// The labels a record may carry, bounded by what the site knows, so that a beacon can never make a new one (a new
// Prometheus series, a new row in a report): a route is a registry route or "not-found"; a remote is a page remote or
// "shell"; a release is one of the remote's releases in the store (the browser reports the build it ran; the store's
// records say which release each build is) or, without a store, the build the server serves live. Anything else is
// "other".
const fs = require('node:fs');
const path = require('node:path');
const { LRUCache } = require('lru-cache');
const { pages } = require('@nativegtm/contract/pages');
const { OTHER, SHELL } = require('@nativegtm/contract/fieldData');
const { storeLayout } = require('@nativegtm/store/layout');

/** The route label of the 404 screen. */
const NOT_FOUND = 'not-found';
/** The shell is not released through the store: its errors carry this release. */
const SHELL_RELEASE = 'live';
/** How long a remote's builds-to-releases table is used before the store is read again. */
const RELEASES_MAX_AGE_MS = 10_000;

/**
 * Each build of a remote's releases in the store, to the release's id (the records written at publish time).
 * @param {string} storeDir
 * @param {string} remote
 * @returns {Map<string, string>}
 */
function releasesByBuild(storeDir, remote) {
  const { records } = storeLayout(storeDir, remote);
  /** @type {Map<string, string>} */
  const byBuild = new Map();
  let files;
  try {
    files = fs.readdirSync(records);
  } catch {
    return byBuild;
  }
  for (const file of files) {
    if (!file.endsWith('.json')) continue;
    try {
      const { id, buildId } = JSON.parse(fs.readFileSync(path.join(records, file), 'utf8'));
      if (typeof id === 'string' && typeof buildId === 'string') byBuild.set(buildId, id);
    } catch {
      // A record being written or broken: its release is "other" until it can be read.
    }
  }
  return byBuild;
}

/**
 * @param {{ storeDir?: string, liveBuilds: () => Map<string, string>, now?: () => number }} options
 *   storeDir: the release store, if any; liveBuilds: each remote's build the server serves live
 */
function createFieldLabels({ storeDir, liveBuilds, now = Date.now }) {
  const routes = new Set([...pages.map((page) => /** @type {string} */ (page.route)), NOT_FOUND]);
  const remotes = new Set(pages.map((page) => /** @type {string} */ (page.remote)));
  /** @type {LRUCache<string, Map<string, string>>} */
  const tables = new LRUCache({ max: remotes.size, ttl: RELEASES_MAX_AGE_MS, ttlResolution: 0, perf: { now } });

  /** @param {string} remote */
  function table(remote) {
    let known = tables.get(remote);
    if (!known) {
      known = storeDir === undefined ? new Map() : releasesByBuild(storeDir, remote);
      tables.set(remote, known);
    }
    return known;
  }

  return {
    /** @param {string} route */
    route: (route) => (routes.has(route) ? route : OTHER),
    /** @param {string} remote */
    remote: (remote) => (remotes.has(remote) || remote === SHELL ? remote : OTHER),
    /**
     * The release label of a build of a remote (both as the browser sent them).
     * @param {string} remote
     * @param {string | undefined} build
     */
    release(remote, build) {
      if (remote === SHELL) return SHELL_RELEASE;
      if (!remotes.has(remote) || build === undefined) return OTHER;
      const release = table(remote).get(build);
      if (release) return release;
      return liveBuilds().get(remote) === build ? build : OTHER;
    },
  };
}

/** @typedef {ReturnType<typeof createFieldLabels>} FieldLabels */

module.exports = { createFieldLabels };

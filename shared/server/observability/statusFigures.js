// What the status page on the metrics port shows, computed: for each remote, its live and previous release (the
// release store's pointer and history; without a release live there, the build its server serves from dist/), and
// for each the last hour's field data from the record store (fieldData/summary.js), whole and in 5-minute buckets.
// One read of an hour of records can take a while, and an operator reloads: the figures are kept CACHE_MS.
const fs = require('node:fs');
const path = require('node:path');
const { LRUCache } = require('lru-cache');
const { fragmentPaths, parsePageManifest } = require('@nativegtm/contract/fragments');
const { SHELL } = require('@nativegtm/contract/fieldData');
const { deployables } = require('../deployables');
const { createSummary } = require('../fieldData/summary');
const { liveAndPrevious } = require('@nativegtm/store/liveHistory');
const { storeLayout } = require('@nativegtm/store/layout');

/** @typedef {import('../fieldData/summary').GroupSummary} GroupSummary */

const WINDOW_MS = 60 * 60_000;
const BUCKET_MS = 5 * 60_000;
/** How long the figures are served before the records are read again. */
const CACHE_MS = 20_000;

/**
 * @typedef {object} ReleaseFigures
 * @property {'live' | 'previous'} role
 * @property {string} id the release's id in the store, or the build's id when the remote serves dist/
 * @property {GroupSummary | undefined} hour the whole hour; undefined without a record
 * @property {(GroupSummary | undefined)[]} buckets each 5 minutes of the hour, oldest first
 */
/**
 * @typedef {object} RemoteFigures
 * @property {string} remote
 * @property {string} route its page's route
 * @property {'store' | 'dist'} source where its live release comes from
 * @property {string} [problem] what is wrong with its live pointer (its server keeps its last good release)
 * @property {ReleaseFigures[]} releases the live one, then the previous one, those that are known
 * @property {number} views every view of its pages in the hour
 * @property {number} otherViews views of releases other than those (an older tab, a preview, "other")
 */
/**
 * @typedef {object} StatusFigures
 * @property {number} at when they were computed (ms since 1970)
 * @property {number} since the window's start: the hour before `at`
 * @property {number[]} buckets each bucket's start
 * @property {number} views every view of the hour
 * @property {GroupSummary | undefined} shell the shell's errors, per 1,000 of every view
 * @property {RemoteFigures[]} remotes
 */

/**
 * The build a remote's server serves from dist/: its ssr/manifest.json's build id (the label its records carry).
 * @param {string} remote
 * @param {string} dir the package's folder
 */
function distBuild(remote, dir) {
  try {
    const text = fs.readFileSync(path.join(dir, 'dist', fragmentPaths.manifest), 'utf8');
    return parsePageManifest(text, remote).buildId;
  } catch {
    return undefined;
  }
}

/**
 * @param {{ remote: string, dir: string }} deployable
 * @param {string} releasesDir
 * @returns {Pick<RemoteFigures, 'source' | 'problem'> & { live?: string, previous?: string }}
 */
function releasesOf({ remote, dir }, releasesDir) {
  const { live, previous, problem } = liveAndPrevious(storeLayout(releasesDir, remote));
  if (live) return { source: 'store', live, previous };
  // A pointer that names nothing usable: the server keeps its last good release, which only it knows.
  if (problem) return { source: 'store', problem };
  return { source: 'dist', live: distBuild(remote, dir) };
}

/**
 * @param {{ fieldRecords: import('../fieldData/fieldRecords').FieldRecordSource, releasesDir: string,
 *   now?: () => number, remotes?: { remote: string, route: string, dir: string }[] }} options
 *   fieldRecords: the field data (every node's, on a database); remotes: the page remotes and their package folders
 *   (the deployables unless given)
 */
function createStatusFigures({ fieldRecords, releasesDir, now = Date.now, remotes }) {
  const pages =
    remotes ??
    deployables.flatMap((deployable) =>
      deployable.role === 'remote' ? [{ remote: deployable.remote, route: deployable.route, dir: deployable.dir }] : [],
    );

  /** @returns {Promise<StatusFigures>} */
  async function compute() {
    const at = now();
    const since = at - WINDOW_MS;
    const hour = createSummary({ by: ['remote', 'release'] });
    const buckets = createSummary({ by: ['remote', 'release'], bucketMs: BUCKET_MS, origin: since });
    // Up to the millisecond before now, so the hour is exactly WINDOW_MS / BUCKET_MS buckets.
    for await (const record of fieldRecords.read({ since, until: at - 1 })) {
      hour.add(record);
      buckets.add(record);
    }
    const whole = hour.result();
    const bucketed = buckets.result().groups;
    const starts = Array.from({ length: WINDOW_MS / BUCKET_MS }, (_, index) => since + index * BUCKET_MS);

    /**
     * @param {string} remote
     * @param {string} release
     */
    const find = (remote, release) =>
      whole.groups.find((group) => !group.shell && group.key.remote === remote && group.key.release === release);
    /**
     * @param {string} remote
     * @param {string} release
     */
    const series = (remote, release) =>
      starts.map((start) =>
        bucketed.find(
          (group) =>
            !group.shell && group.bucket === start && group.key.remote === remote && group.key.release === release,
        ),
      );

    return {
      at,
      since,
      buckets: starts,
      views: whole.views,
      shell: whole.groups.find((group) => group.shell && group.key.remote === SHELL),
      remotes: pages.map((page) => {
        const { live, previous, ...where } = releasesOf(page, releasesDir);
        /** @type {ReleaseFigures[]} */
        const releases = [];
        if (live)
          releases.push({ role: 'live', id: live, hour: find(page.remote, live), buckets: series(page.remote, live) });
        if (previous) {
          releases.push({
            role: 'previous',
            id: previous,
            hour: find(page.remote, previous),
            buckets: series(page.remote, previous),
          });
        }
        const views = whole.groups
          .filter((group) => !group.shell && group.key.remote === page.remote)
          .reduce((sum, group) => sum + group.views, 0);
        const shown = releases.reduce((sum, release) => sum + (release.hour?.views ?? 0), 0);
        return { remote: page.remote, route: page.route, ...where, releases, views, otherViews: views - shown };
      }),
    };
  }

  /** @type {LRUCache<'figures', StatusFigures>} */
  // ttlResolution 0: the clock is read on every look, not cached for a millisecond (tests give their own clock).
  const cache = new LRUCache({ max: 1, ttl: CACHE_MS, ttlResolution: 0, perf: { now }, fetchMethod: compute });

  return {
    /** The figures, computed at most every CACHE_MS; loads at the same moment share one computation. */
    async get() {
      return /** @type {StatusFigures} */ (await cache.fetch('figures'));
    },
  };
}

/** @typedef {ReturnType<typeof createStatusFigures>} StatusFiguresSource */

module.exports = { createStatusFigures, WINDOW_MS, CACHE_MS };

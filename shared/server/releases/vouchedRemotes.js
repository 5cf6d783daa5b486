// The remotes.json browsers get (@nativegtm/contract/remotesConfig servedRemotes): each remote's manifest where the
// operator's file says (for a preview's or a canary's visitor, the chosen release's folder; for an overriding browser,
// its dev server), with the integrity of the remote's list of its files' integrity that this server vouches for. The
// shell fetches the list with it and refuses every file of a remote without one, so what this names is what runs:
// - a remote with a live release in the store: that release's list, as the node's copy of the store has it and only
//   if it says what the release's record says (@nativegtm/store/releaseIntegrity), whoever serves its files;
// - a chosen release: that release's, the same way;
// - a remote served from its own dist/ (the store has nothing live of it): the list its own server answers, read as
//   the documents read its server-rendered HTML, which the server already takes from that server as it comes;
// - a remote a dev server overrides: none, and its entry says it is the dev server's: the one case the shell checks
//   nothing, and only as this server says (never as a cookie a page's script can write says).
// It also tells the document server which server-rendered HTML it may paste (serverRendered): a release in the store's
// only through the ssr/manifest.json its record names; a dist/ remote's as its server answers it.
const { createHash } = require('node:crypto');
const { LRUCache } = require('lru-cache');
const { INTEGRITY_ALGORITHM, INTEGRITY_FILE, MAX_INTEGRITY_BYTES } = require('@nativegtm/contract/integrity');
const { releaseFolder } = require('@nativegtm/contract/releases');
const { REMOTES_CONFIG_PATH, servedRemotes } = require('@nativegtm/contract/remotesConfig');
const { storeLayout } = require('@nativegtm/store/layout');
const { liveRelease } = require('@nativegtm/store/livePointer');
const { RELEASE_MANIFEST } = require('@nativegtm/store/releaseInStore');
const { rememberedFragmentManifestIntegrity, rememberedListIntegrity } = require('@nativegtm/store/releaseIntegrity');
const { is } = require('../routeTable');
const { silentLogger } = require('../observability/logger');
const { overriddenEntries } = require('./overrides');

/** @typedef {{ remote: string, id: string }} ChosenRelease */
/**
 * The ssr/manifest.json texts the document server may take for a remote: those whose integrity is one of these
 * (none: no manifest at all). Each release's record names one.
 * @typedef {{ manifests: { release: string, integrity: string | undefined }[] }} VouchedFragments
 */
/** @typedef {{ chosen: ChosenRelease[], override?: { remote: string, origin: string } }} Personal */
/** @typedef {Personal & { headers: Record<string, string> }} PersonalAnswer whom it is for, and the answer's headers */

/** How long a dist/ remote's list is used before it is read again, and how long a read may take. */
const LIST_MAX_AGE_MS = 1000;
const LIST_TIMEOUT_MS = 2000;
/**
 * How long a request waits for a dist/ remote's list never read yet: the read goes on, for the next requests. A remote
 * that does not answer must not hold every other remote's entry back.
 */
const FIRST_READ_WAIT_MS = 300;
/**
 * How long the release that was live before a promote still has its server-rendered HTML vouched for: the remote's
 * server may see the promote later than this one (it reads the live pointer at most every 200 ms), and a fetch under
 * way brings the release it started on.
 */
const PREVIOUS_LIVE_MS = 2000;
/** What the cache holds for a list that could not be read (it caches no undefined): nothing vouched for. */
const UNREAD = '';
/** How long a list that could not be read is not read again: a remote back up is vouched for within that. */
const UNREAD_MAX_AGE_MS = 250;

/**
 * @param {{ remotes: import('../remotesFile').RemotesFile, releasesDir?: string,
 *   servedFromFolders?: readonly string[], logger?: import('../observability/logger').Logger,
 *   fetchImpl?: typeof fetch, now?: () => number }} options
 *   remotes: the operator's remotes.json; releasesDir: the release store, if any; servedFromFolders: remotes whose
 *   servers serve a folder of their own whatever the store holds (the gate's candidate release): vouched for as a
 *   dist/ remote is; logger: told once of each release in the store whose list this server cannot vouch for
 *   (missing, or not the one its record names: changed on this node's disk, or copied without one)
 */
function createVouchedRemotes({
  remotes,
  releasesDir,
  servedFromFolders = [],
  logger = silentLogger(),
  fetchImpl = fetch,
  now = Date.now,
}) {
  const remembered = rememberedListIntegrity();
  /** Releases found not vouched for, each said once (the metric of browsers' refusals counts every visitor). */
  const unvouched = new Set();
  /**
   * @param {string} remote
   * @param {string} id
   */
  const listIntegrity = (remote, id) => {
    const integrity = remembered(layoutOf(remote), id);
    const key = `${remote}/${id}`;
    // Vouched for again (a copy made whole since): a later change is said again.
    if (integrity !== undefined) unvouched.delete(key);
    else if (!unvouched.has(key) && unvouched.size < 1024) {
      unvouched.add(key);
      logger.error(
        { remote, release: id },
        'no integrity list of this release on this node is the one its record names: browsers refuse its files',
      );
    }
    return integrity;
  };
  /** @type {Map<string, () => string | undefined>} */
  const live = new Map();
  const fragmentManifest = rememberedFragmentManifestIntegrity({ now });
  /** Each remote's live release as last seen, and the one before it with when it stopped being live. */
  /** @type {Map<string, { id: string, previous?: { id: string, until: number } }>} */
  const lastLive = new Map();

  /** @param {string} remote */
  const layoutOf = (remote) => storeLayout(/** @type {string} */ (releasesDir), remote);

  /**
   * The remote's live release in the store, if it has one.
   * @param {string} remote
   */
  function liveId(remote) {
    if (releasesDir === undefined || servedFromFolders.includes(remote)) return undefined;
    let reader = live.get(remote);
    if (!reader) {
      reader = liveRelease(layoutOf(remote), { now });
      live.set(remote, reader);
    }
    return reader();
  }

  /**
   * Which of the remote's server-rendered HTML the document server may paste, for a request that gets `chosen` (a
   * preview's or a canary side's release) or the live release: undefined when nothing is checked (a remote served
   * from its own dist/, whose server the site trusts); otherwise the ssr/manifest.json integrities the store's
   * records name, the live release's and, for PREVIOUS_LIVE_MS after a promote, the one's before it.
   * @param {string} remote
   * @param {string} [chosen] the id of the release the request gets in place of the live one
   * @returns {VouchedFragments | undefined}
   */
  function serverRendered(remote, chosen) {
    const vouched = (/** @type {string} */ id) => ({ release: id, integrity: fragmentManifest(layoutOf(remote), id) });
    if (chosen !== undefined && releasesDir !== undefined) return { manifests: [vouched(chosen)] };
    const id = liveId(remote);
    if (id === undefined) return undefined;
    const time = now();
    const last = lastLive.get(remote);
    let previous = last?.previous;
    if (last && last.id !== id) {
      previous = { id: last.id, until: time + PREVIOUS_LIVE_MS };
      lastLive.set(remote, { id, previous });
    } else if (!last) lastLive.set(remote, { id });
    const manifests = [vouched(id)];
    if (previous && previous.until > time && previous.id !== id) manifests.push(vouched(previous.id));
    return { manifests };
  }

  /**
   * The integrity of the list each dist/ remote's own server answers beside its manifest, by the list's URL: read
   * again once a second at most, so an in-place redeploy is vouched for within about a second, and the last answer
   * stands while the next is read (a request waits only for a list never read, and FIRST_READ_WAIT_MS at most). A
   * list that cannot be read is remembered as such for UNREAD_MAX_AGE_MS: nothing is vouched for, and the requests
   * meanwhile do not wait for it again.
   * @type {LRUCache<string, string>}
   */
  const distLists = new LRUCache({
    max: 64,
    ttl: LIST_MAX_AGE_MS,
    allowStale: true,
    ttlResolution: 0,
    perf: { now },
    fetchMethod: async (url, _stale, { signal, options }) => {
      // A timer of our own, not AbortSignal.timeout, which a garbage collection can drop (fragmentCache.js).
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), LIST_TIMEOUT_MS);
      const unread = () => {
        options.ttl = UNREAD_MAX_AGE_MS;
        return UNREAD;
      };
      try {
        const response = await fetchImpl(url, { redirect: 'error', signal: AbortSignal.any([signal, timeout.signal]) });
        if (!response.ok || !response.body) return unread();
        // Hashed as it comes, and given up past MAX_INTEGRITY_BYTES: a remote's server cannot make this one hold its reply.
        const hash = createHash(INTEGRITY_ALGORITHM);
        let size = 0;
        for await (const chunk of response.body) {
          size += chunk.length;
          if (size > MAX_INTEGRITY_BYTES) {
            timeout.abort();
            return unread();
          }
          hash.update(chunk);
        }
        return `${INTEGRITY_ALGORITHM}-${hash.digest('base64')}`;
      } catch {
        return unread();
      } finally {
        clearTimeout(timer);
      }
    },
  });

  /** @param {string} manifestUrl */
  /** The lists whose last read failed and are being read again: a request meanwhile waits for none of them. */
  const rereading = new Set();

  /** @param {string} manifestUrl */
  async function distList(manifestUrl) {
    const url = new URL(INTEGRITY_FILE, new URL('./', manifestUrl)).href;
    // An unread list is never answered stale: a remote back up (its error screen's Try again) is read at once. But
    // only the request that starts that read waits for it: a remote that still hangs holds back no other.
    const unread = distLists.peek(url, { allowStale: true }) === UNREAD;
    if (unread && rereading.has(url)) return undefined;
    const read = distLists.fetch(url, { allowStale: !unread }).catch(() => UNREAD);
    if (unread) {
      rereading.add(url);
      void read.finally(() => rereading.delete(url));
    }
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const waited = new Promise((resolve) => {
      timer = setTimeout(resolve, FIRST_READ_WAIT_MS, UNREAD);
    });
    const integrity = await Promise.race([read, waited]).finally(() => clearTimeout(timer));
    return integrity || undefined;
  }

  /**
   * The remotes.json a request gets, as text.
   * @param {Personal} [personal] whom it is for, when not everyone
   * @returns {Promise<string | undefined>} undefined while the operator's file cannot be read
   */
  async function json(personal) {
    const configured = remotes.entries();
    if (!configured) return undefined;
    const entries = overriddenEntries(configured, personal?.override);
    const vouched = await Promise.all(
      Object.entries(entries).map(async ([remote, manifestUrl]) => {
        if (!manifestUrl || remote === personal?.override?.remote) return [remote, manifestUrl, undefined];
        const chosen = personal?.chosen.find((release) => release.remote === remote);
        if (chosen && releasesDir !== undefined) {
          const moved = new URL(`${releaseFolder(chosen.id)}${RELEASE_MANIFEST}`, new URL('./', manifestUrl)).href;
          return [remote, moved, listIntegrity(remote, chosen.id)];
        }
        const id = liveId(remote);
        if (id !== undefined) return [remote, manifestUrl, listIntegrity(remote, id)];
        return [remote, manifestUrl, await distList(manifestUrl)];
      }),
    );
    const urls = Object.fromEntries(vouched.map(([remote, url]) => [remote, url]));
    const integrity = Object.fromEntries(vouched.map(([remote, , value]) => [remote, value]));
    return `${JSON.stringify(servedRemotes(urls, integrity, personal?.override?.remote), null, 2)}\n`;
  }

  return { json, serverRendered };
}

/**
 * The /remotes.json route, as the built-in server and the collector beside nginx answer it.
 * @param {ReturnType<typeof createVouchedRemotes>} vouched
 * @param {((req: import('node:http').IncomingMessage) => PersonalAnswer | undefined) | undefined} personalOf whom the
 *   request is for, when not everyone (the releases chosen for it never include an overridden remote)
 * @returns {import('../routeTable').Route}
 */
function remotesJsonRoute(vouched, personalOf) {
  return {
    label: 'config',
    path: is(REMOTES_CONFIG_PATH),
    async handle(req, res) {
      const current = personalOf?.(req);
      /** @type {string | undefined} */
      let text;
      try {
        text = await vouched.json(current && { chosen: current.chosen, override: current.override });
      } catch {
        // A store that cannot be read: the shell shows its error screen, as for a file it cannot fetch.
        res.statusCode = 500;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.setHeader('Cache-Control', 'no-store');
        return res.end('remotes.json could not be made\n');
      }
      if (text === undefined) {
        res.statusCode = 404;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        return res.end('Not found\n');
      }
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      // An edit of the file or a promote must take effect on the next visit.
      if (!current) res.setHeader('Cache-Control', 'no-cache');
      else for (const [header, value] of Object.entries(current.headers)) res.setHeader(header, value);
      return res.end(req.method === 'HEAD' ? undefined : text);
    },
  };
}

module.exports = { createVouchedRemotes, remotesJsonRoute };

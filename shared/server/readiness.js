// The shell's readiness, in two answers. `ready`, for a balancer (/readyz): this node can serve, as any other node
// could: its remotes.json is readable and names every page's remote. A remote that does not answer does not make it
// unready: were that remote down everywhere, every node would leave the balancer's rotation, while each still answers
// every page (that page renders in the browser, or shows the error screen). `remotesReady`, for a rollout
// (/readyz/remotes): each page's remote also answers its mf-manifest.json (the file every visitor's browser loads
// first). Each probe is bounded by `timeoutMs`, and one answer serves every probe for `maxAgeMs`, so a public /readyz
// cannot be used to make the node fetch from the remotes at the rate of the requests.
// On a node serving a copy of the store on PostgreSQL (releases/storeCopy.js), `ready` also needs a copy; one that
// is stale (the database down) is still ready, and says so: every node serves what it last knew.
const { READINESS_PATH, REMOTES_READINESS_PATH } = require('./healthPaths');
const { is, sendText } = require('./routeTable');

/**
 * @typedef {{ ready: boolean, ms?: number, build?: string, error?: string }} RemoteReadiness
 * @typedef {{ ready: boolean, remotesReady: boolean, remotesJson: 'ok' | 'unreadable',
 *   remotes: Record<string, RemoteReadiness>, store?: import('./releases/storeCopy').StoreCopy }} Readiness
 */

/**
 * @param {{ remotes: import('./remotesFile').RemotesFile, remoteNames: readonly string[], builds?: () => Map<string, string>, timeoutMs?: number,
 *   maxAgeMs?: number, fetch?: typeof fetch, now?: () => number,
 *   storeCopy?: () => import('./releases/storeCopy').StoreCopy }} options
 *   remotes: remotes.json's reader; remoteNames: the remotes of the site's pages; builds: the live build of each remote,
 *   as last read in the background (fieldData/liveBuildsPoller.js); storeCopy: the node's copy of the store on
 *   PostgreSQL, when it serves one
 * @returns {() => Promise<Readiness>}
 */
function createReadiness({
  remotes,
  remoteNames,
  builds = () => new Map(),
  timeoutMs = 1000,
  maxAgeMs = 1000,
  fetch: fetchImpl = fetch,
  now = Date.now,
  storeCopy,
}) {
  /** @type {{ at: number, answer: Promise<Readiness> } | undefined} */
  let last;

  /**
   * @param {string} url
   * @returns {Promise<RemoteReadiness>}
   */
  async function probe(url) {
    const started = performance.now();
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    try {
      const response = await fetchImpl(url, { redirect: 'manual', signal: timeout.signal });
      const ms = Math.round(performance.now() - started);
      if (response.status !== 200) {
        await response.body?.cancel();
        return { ready: false, ms, error: `answered ${response.status}` };
      }
      JSON.parse(await response.text());
      return { ready: true, ms };
    } catch (error) {
      if (timeout.signal.aborted) return { ready: false, error: `no answer within ${timeoutMs} ms` };
      return { ready: false, error: error instanceof SyntaxError ? 'not JSON' : 'unreachable' };
    } finally {
      clearTimeout(timer);
    }
  }

  /** @returns {Promise<Readiness>} */
  async function check() {
    const entries = remotes.entries();
    const copy = storeCopy?.();
    const store = copy ? { store: copy } : {};
    if (!entries) return { ready: false, remotesReady: false, remotesJson: 'unreadable', remotes: {}, ...store };
    const live = builds();
    const results = await Promise.all(
      remoteNames.map(async (name) => {
        const url = entries[name];
        /** @type {RemoteReadiness} */
        const result = url ? await probe(url) : { ready: false, error: 'no valid entry in remotes.json' };
        const build = live.get(name);
        return /** @type {const} */ ([name, build ? { ...result, build } : result]);
      }),
    );
    return {
      ready: remoteNames.every((name) => entries[name] !== undefined) && (copy?.present ?? true),
      remotesReady: results.every(([, result]) => result.ready),
      remotesJson: 'ok',
      remotes: Object.fromEntries(results),
      ...store,
    };
  }

  return () => {
    const time = now();
    if (!last || time - last.at > maxAgeMs) last = { at: time, answer: check() };
    return last.answer;
  };
}

/**
 * The two answers as routes (routeTable.js): 200 when ready, 503 when not, the readiness as JSON, never cached.
 * @param {() => Promise<Readiness>} readiness
 * @returns {import('./routeTable').Route[]}
 */
function readinessRoutes(readiness) {
  return [READINESS_PATH, REMOTES_READINESS_PATH].map((readinessPath) => ({
    label: readinessPath === READINESS_PATH ? 'readyz' : 'readyz-remotes',
    path: is(readinessPath),
    /** @type {import('./routeTable').Route['handle']} */
    async handle(req, res) {
      const answer = await readiness();
      const ready = answer.ready && (readinessPath === READINESS_PATH || answer.remotesReady);
      res.statusCode = ready ? 200 : 503;
      return sendText(req, res, 'application/json', `${JSON.stringify(answer, null, 2)}\n`, 'no-store');
    },
  }));
}

module.exports = { createReadiness, readinessRoutes };

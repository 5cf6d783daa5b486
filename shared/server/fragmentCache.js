// Fetches the files remotes render for the document server (@nativegtm/contract/fragments) and keeps them, so a busy
// server does not ask a remote for every document while a new build still shows within a second.
//
// Two kinds of file:
// - A file whose URL can change meaning (a remote's ssr/manifest.json, which names its live build) is never served
//   older than `maxAgeMs`. Files asked for lately are fetched again in the background before their copy is that old
//   (refresh-ahead), so a visitor's document does not wait on a remote round trip just because nobody asked for that
//   page in the last half second. Without it, every document of a quiet site waited for its fetches: 6 ms more to the
//   first byte on loopback, measured as a later paint than a static pre-rendered site.
// - A file whose URL names its build (`immutable`: head and body, asked for with the manifest's build id) cannot
//   change while that build is live, so one good copy is kept for as long as it is asked for, never fetched again.
//   When a remote is redeployed, its manifest names a new build and so new URLs: the new files are fetched in full.
//   (Revalidating with the remote's ETag instead is not safe: static servers derive it from size and modification
//   time, which a same-size file of another build can share, e.g. when a deploy tool normalises modification times.)
//
// Concurrent requests for a file share one fetch. A failure is remembered for `maxAgeMs`, so a hanging remote costs
// one timeout per period, not one per visitor; it never replaces a copy that is still young enough to serve. A file
// nobody asked for in `idleMs` is dropped, and the timer stops when nothing is left.

/**
 * What the cache tells its owner (metrics, logs); `label` is what the caller named the file's source (its remote).
 * `refused` is the document server's own: a file it had but left out of a document, its bytes not the ones the store
 * recorded.
 * @typedef {{ fetched?: (event: { url: string, label: string, seconds: number, outcome: FetchOutcome }) => void,
 *   hit?: (label: string) => void, refused?: (event: { url: string, label: string }) => void }} CacheEvents
 * @typedef {'ok' | import('./observability/metrics').FragmentFailure} FetchOutcome
 */

/**
 * @param {{ maxAgeMs?: number, timeoutMs?: number, idleMs?: number, fetch?: typeof fetch, now?: () => number,
 *   events?: CacheEvents }} [options]
 *   maxAgeMs: a copy of a file that can change is never served older than this; timeoutMs: how long one fetch may
 *   take; idleMs: how long a file nobody asks for is kept; events: told of every fetch and of every answer from a copy.
 */
function createFragmentCache({
  maxAgeMs = 500,
  timeoutMs = 400,
  idleMs = 30_000,
  fetch: fetchImpl = fetch,
  now = Date.now,
  events = {},
} = {}) {
  /**
   * copy: the newest good answer, with the time its fetch started; failedAt: when the newest failed fetch started;
   * timedOut: whether that fetch failed for running out of time.
   * @typedef {{ usedAt: number, immutable: boolean, accept: (text: string) => boolean, label: string,
   *   copy?: { at: number, text: string }, failedAt?: number, timedOut?: boolean, pending?: Promise<Answer>,
   *   pendingAt?: number }} Entry
   */
  /**
   * What a fetch brought: the file's text, or null and whether the fetch ran out of time.
   * @typedef {{ text: string | null, timedOut: boolean }} Answer
   */
  /** @type {Map<string, Entry>} */
  const entries = new Map();
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timer;
  let closed = false;
  // Ends the fetches under way when the cache is closed, so a closed server holds no sockets to a remote.
  const closing = new AbortController();

  /**
   * The file's text, or null when it could not be fetched or is not what was asked for; and how its fetch ended.
   * @param {string} url
   * @param {Entry} entry
   * @returns {Promise<{ text: string | null, outcome: FetchOutcome }>}
   */
  async function download(url, { accept, label }) {
    // A timer of our own, not AbortSignal.timeout: that signal is only weakly held by its timer and by
    // AbortSignal.any, so a garbage collection in between could drop it and leave the fetch waiting for a hanging
    // remote (seen once on CI: a document waited 8 s for a remote that answers after 8 s).
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const started = performance.now();
    /**
     * @param {FetchOutcome} outcome
     * @param {string | null} [text]
     */
    const tell = (outcome, text = null) => {
      events.fetched?.({ url, label, seconds: (performance.now() - started) / 1000, outcome });
      return { text, outcome };
    };
    try {
      const signal = AbortSignal.any([closing.signal, timeout.signal]);
      // No redirects: a fragment comes from the remote's origin in remotes.json or not at all.
      const response = await fetchImpl(url, { redirect: 'manual', signal });
      if (response.status !== 200) {
        await response.body?.cancel();
        return tell('status');
      }
      const text = await response.text();
      return accept(text) ? tell('ok', text) : tell('rejected');
    } catch {
      const outcome = timeout.signal.aborted ? 'timeout' : 'unreachable';
      // A fetch ended by close() is no remote's failure.
      return closing.signal.aborted ? { text: null, outcome } : tell(outcome);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Whether the entry holds a good copy that may still be served.
   * @param {Entry} entry
   * @param {number} time
   * @returns {entry is Entry & { copy: { at: number, text: string } }}
   */
  function servable(entry, time) {
    return entry.copy !== undefined && (entry.immutable || time - entry.copy.at <= maxAgeMs);
  }

  /**
   * Whether the newest answer was a failure that is still to be remembered.
   * @param {Entry} entry
   * @param {number} time
   */
  function recentFailure(entry, time) {
    const { failedAt, copy } = entry;
    return failedAt !== undefined && (!copy || failedAt > copy.at) && time - failedAt <= maxAgeMs;
  }

  /**
   * Starts a fetch of the file unless one started less than maxAge ago is under way (an older one may hang until its
   * timeout: a remote that is back must not wait for it). When fetches overlap, an answer never replaces the answer
   * of a fetch that started later.
   * @param {string} url
   * @param {Entry} entry
   * @returns {Promise<Answer>}
   */
  function refresh(url, entry) {
    const time = now();
    if (entry.pending && time - (entry.pendingAt ?? -Infinity) <= maxAgeMs) return entry.pending;
    const promise = download(url, entry).then(({ text, outcome }) => {
      const timedOut = outcome === 'timeout';
      if (text !== null) {
        if (!entry.copy || entry.copy.at <= time) entry.copy = { at: time, text };
      } else if (entry.failedAt === undefined || entry.failedAt <= time) {
        entry.failedAt = time;
        entry.timedOut = timedOut;
      }
      if (entry.pending === promise) entry.pending = undefined;
      return { text, timedOut };
    });
    entry.pending = promise;
    entry.pendingAt = time;
    return promise;
  }

  /**
   * Keeps what was asked for lately fresh, drops the rest; runs while anything is cached. A file that can change is
   * fetched again once its newest answer is a third of maxAge old: with the sweep every sixth, the fetch has at
   * least half of maxAge to come back before the copy may no longer be served.
   */
  function sweep() {
    const time = now();
    for (const [url, entry] of entries) {
      if (time - entry.usedAt > idleMs) {
        if (!entry.pending) entries.delete(url);
        continue;
      }
      if (entry.immutable && entry.copy) continue;
      const answeredAt = Math.max(entry.copy?.at ?? -Infinity, entry.failedAt ?? -Infinity);
      if (time - answeredAt >= maxAgeMs / 3) refresh(url, entry);
    }
    if (entries.size === 0) stop();
  }

  function start() {
    if (timer || closed) return;
    timer = setInterval(sweep, Math.max(10, Math.floor(maxAgeMs / 6)));
    // The refresher must never keep a process alive on its own.
    timer.unref?.();
  }

  function stop() {
    clearInterval(timer);
    timer = undefined;
  }

  /** Stops the refresher and ends the fetches under way; a closed cache answers null. */
  function close() {
    closed = true;
    stop();
    closing.abort();
    entries.clear();
  }

  /**
   * The file's text, or null when it could not be fetched (error status, refused, timed out, redirected). Never
   * waits longer than `waitMs`. `immutable`: the URL names the build the file belongs to. `accept`: whether an
   * answer is that file; one that is not counts as a failure, so it is asked for again once the failure is old
   * instead of being kept (a deploy that copies the manifest before the files it names answers an older build's
   * file for a moment, under the new build's URL).
   * `answered`: told, as it answers, whether the answer is a copy, a remembered failure, what a fetch brought, or none
   * for want of time (the wait or the fetch ran out of it, or the remembered failure did): a document that goes out
   * without a file for that reason says so (fragmentTiming.js), so that it is not taken for one whose remote has no
   * such file.
   * @param {string} url
   * @param {number} [waitMs]
   * @param {{ immutable?: boolean, accept?: (text: string) => boolean, label?: string,
   *   answered?: (from: 'copy' | 'failure' | 'fetch' | 'timeout') => void }} [options]
   * @returns {Promise<string | null>}
   */
  function get(url, waitMs = timeoutMs, { immutable = false, accept = () => true, label = '', answered } = {}) {
    if (closed) return Promise.resolve(null);
    const time = now();
    let entry = entries.get(url);
    if (!entry) {
      entry = { usedAt: time, immutable, accept, label };
      entries.set(url, entry);
      start();
    }
    entry.usedAt = time;
    if (servable(entry, time)) {
      events.hit?.(entry.label);
      answered?.('copy');
      return Promise.resolve(entry.copy.text);
    }
    if (recentFailure(entry, time)) {
      answered?.(entry.timedOut ? 'timeout' : 'failure');
      return Promise.resolve(null);
    }
    const promise = refresh(url, entry);
    // A caller never waits longer than it asked, nor than the timeout, whatever the fetch does.
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timeout;
    /** @type {Promise<Answer>} */
    const giveUp = new Promise((resolve) => {
      timeout = setTimeout(() => resolve({ text: null, timedOut: true }), Math.max(0, Math.min(waitMs, timeoutMs)));
    });
    return Promise.race([promise, giveUp])
      .then(({ text, timedOut }) => {
        answered?.(timedOut ? 'timeout' : 'fetch');
        return text;
      })
      .finally(() => clearTimeout(timeout));
  }

  /**
   * Forgets a file's copy, so that the next request for it fetches it again: its owner found the copy not to be the
   * file (its bytes are not the ones its release recorded), which may be mended where it is served. A fetch under way
   * began before the owner looked, so its answer is not kept either: it answers only those already waiting for it.
   * (Kept, it became the copy again, and a file of a build is never fetched again while asked for: the mended file
   * was left out of one more document, seen on a busy machine.) `text`: the copy refused; a copy that is another
   * text by now (the file mended, and fetched since) is kept.
   * @param {string} url
   * @param {string} text
   */
  function drop(url, text) {
    const copy = entries.get(url)?.copy;
    if (!copy || copy.text === text) entries.delete(url);
  }

  return { get, close, drop, sweep };
}

module.exports = { createFragmentCache };

// Fetches the files remotes render for the document server (shared/server/fragments.js) and keeps each for a short
// time, so a busy server asks a remote at most a few times a second per file while a new build still shows within a
// second. Concurrent requests for a file share one fetch; a failure is remembered for the same short time, so a
// hanging remote costs one timeout per period, not one per visitor.
//
// Files asked for lately are fetched again in the background before their copy is too old (refresh-ahead), so a
// visitor's document never waits on a remote round trip just because nobody asked for that page in the last half
// second. Without it, every document of a quiet site waited for three sequential fetches (head, manifest, body):
// 6 ms more to the first byte on loopback, measured as a later paint than a static pre-rendered site. A file
// nobody asked for in `idleMs` is dropped, and the timer stops when nothing is left.

/**
 * @param {{ maxAgeMs?: number, timeoutMs?: number, idleMs?: number, fetch?: typeof fetch, now?: () => number }}
 *   [options] maxAgeMs: a copy older than this is never served; timeoutMs: how long one fetch may take; idleMs: how
 *   long a file nobody asks for is kept fresh.
 */
function createFragmentCache({
  maxAgeMs = 500,
  timeoutMs = 400,
  idleMs = 30_000,
  fetch: fetchImpl = fetch,
  now = Date.now,
} = {}) {
  /**
   * @typedef {{ usedAt: number, copy?: { at: number, text: string | null, etag?: string },
   *   pending?: Promise<string | null>, pendingAt?: number }} Entry
   */
  /** @type {Map<string, Entry>} */
  const entries = new Map();
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timer;

  /**
   * The file's text and ETag, or a null text when it could not be fetched. With the copy in hand, the request is
   * conditional: an unchanged file costs the remote a 304 without a body, which is what nearly every background
   * refresh gets.
   */
  async function download(url, copy) {
    try {
      const headers = copy?.etag && copy.text !== null ? { 'If-None-Match': copy.etag } : {};
      // No redirects: a fragment comes from the remote's origin in remotes.json or not at all.
      const response = await fetchImpl(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      if (response.status === 304 && headers['If-None-Match']) {
        await response.body?.cancel();
        return { text: copy.text, etag: copy.etag };
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        return { text: null };
      }
      return { text: await response.text(), etag: response.headers.get('etag') ?? undefined };
    } catch {
      return { text: null };
    }
  }

  /**
   * Starts a fetch of the file unless one started less than maxAge ago is under way (an older one may hang until its
   * timeout: a remote that is back must not wait for it). The newest fetch to end sets the copy, failure included.
   */
  function refresh(url, entry) {
    const time = now();
    if (entry.pending && time - entry.pendingAt <= maxAgeMs) return entry.pending;
    const promise = download(url, entry.copy).then(({ text, etag }) => {
      if (!entry.copy || entry.copy.at <= time) entry.copy = { at: time, text, etag };
      if (entry.pending === promise) entry.pending = undefined;
      return text;
    });
    entry.pending = promise;
    entry.pendingAt = time;
    return promise;
  }

  /** Keeps what was asked for lately fresh, drops the rest; runs while anything is cached. */
  function sweep() {
    const time = now();
    for (const [url, entry] of entries) {
      if (time - entry.usedAt > idleMs) {
        if (!entry.pending) entries.delete(url);
      } else if (!entry.copy || time - entry.copy.at >= maxAgeMs / 2) {
        refresh(url, entry);
      }
    }
    if (entries.size === 0) stop();
  }

  function start() {
    if (timer) return;
    timer = setInterval(sweep, Math.max(10, Math.floor(maxAgeMs / 4)));
    // The refresher must never keep a process alive on its own.
    timer.unref?.();
  }

  function stop() {
    clearInterval(timer);
    timer = undefined;
  }

  /**
   * The file's text, or null when it could not be fetched (error status, refused, timed out, redirected). Never
   * waits longer than `waitMs`.
   */
  function get(url, waitMs = timeoutMs) {
    let entry = entries.get(url);
    if (!entry) {
      entry = { usedAt: now() };
      entries.set(url, entry);
      start();
    }
    entry.usedAt = now();
    const { copy } = entry;
    if (copy && now() - copy.at <= maxAgeMs) return Promise.resolve(copy.text);
    const promise = refresh(url, entry);
    if (waitMs >= timeoutMs) return promise;
    let timeout;
    const giveUp = new Promise((resolve) => {
      timeout = setTimeout(() => resolve(null), Math.max(0, waitMs));
    });
    return Promise.race([promise, giveUp]).finally(() => clearTimeout(timeout));
  }

  return { get, close: stop, sweep };
}

module.exports = { createFragmentCache };

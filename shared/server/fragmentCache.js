// Fetches the files remotes render for the document server (shared/server/fragments.js) and keeps each for a short
// time, so a busy server asks a remote at most a few times a second per file while a new build still shows within a
// second. Concurrent requests for a file share one fetch; a failure is remembered for the same short time, so a
// hanging remote costs one timeout per period, not one per visitor.

/**
 * @param {{ maxAgeMs?: number, timeoutMs?: number, fetch?: typeof fetch, now?: () => number }} [options]
 */
function createFragmentCache({ maxAgeMs = 500, timeoutMs = 400, fetch: fetchImpl = fetch, now = Date.now } = {}) {
  /** url → { at, promise } */
  const entries = new Map();

  async function download(url) {
    try {
      // No redirects: a fragment comes from the remote's origin in remotes.json or not at all.
      const response = await fetchImpl(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      if (response.status !== 200) {
        await response.body?.cancel();
        return null;
      }
      return await response.text();
    } catch {
      return null;
    }
  }

  /**
   * The file's text, or null when it could not be fetched (error status, refused, timed out, redirected). Never
   * waits longer than `waitMs`.
   */
  function get(url, waitMs = timeoutMs) {
    let entry = entries.get(url);
    if (!entry || now() - entry.at > maxAgeMs) {
      entry = { at: now(), promise: download(url) };
      entries.set(url, entry);
      // Drop what nobody asked for lately, so an abandoned remote address does not stay in memory.
      if (entries.size > 500) {
        for (const [key, value] of entries) if (now() - value.at > maxAgeMs) entries.delete(key);
      }
    }
    if (waitMs >= timeoutMs) return entry.promise;
    let timer;
    const giveUp = new Promise((resolve) => {
      timer = setTimeout(() => resolve(null), Math.max(0, waitMs));
    });
    return Promise.race([entry.promise, giveUp]).finally(() => clearTimeout(timer));
  }

  return { get };
}

module.exports = { createFragmentCache };

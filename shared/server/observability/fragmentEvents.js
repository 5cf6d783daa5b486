// Turns what the fragment cache reports into metrics and log lines. Every fetch is counted; a failure is logged when
// a file starts failing or fails for another reason, then at most every `repeatLogMs` with how many failures the
// lines in between left out: a remote that is down is refetched several times a second, and one line per fetch would
// bury everything else in the log.

const { LRUCache } = require('lru-cache');

/** @typedef {import('./metrics').Metrics} Metrics */
/** @typedef {import('./logger').Logger} Logger */

/**
 * @param {{ metrics?: Metrics, logger: Logger, repeatLogMs?: number, now?: () => number }} options
 * @returns {import('../fragmentCache').CacheEvents}
 */
function fragmentEvents({ metrics, logger, repeatLogMs = 10_000, now = Date.now }) {
  /**
   * Per failing URL: the reason and time of the last line logged, the failures left out since, all its failures.
   * Bounded: URLs name builds, and a build nobody asks for any more is never fetched again to clear its entry.
   * @type {LRUCache<string, { reason: string, at: number, unlogged: number, total: number }>}
   */
  const failing = new LRUCache({ max: 256 });
  /**
   * Logs a failure unless the file's last line was for the same reason, less than repeatLogMs ago.
   * @param {string} url
   * @param {string} label
   * @param {import('./metrics').FragmentFailure} outcome
   * @param {number} seconds
   */
  function failed(url, label, outcome, seconds) {
    const last = failing.get(url);
    const time = now();
    const total = (last?.total ?? 0) + 1;
    if (last && last.reason === outcome && time - last.at < repeatLogMs) {
      Object.assign(last, { unlogged: last.unlogged + 1, total });
      return;
    }
    logger.warn(
      { remote: label, url, reason: outcome, ms: Math.round(seconds * 1000), unlogged: last?.unlogged ?? 0 },
      outcome === 'unvouched' ? 'fragment left out: not the bytes its release recorded' : 'fragment failed',
    );
    failing.set(url, { reason: outcome, at: time, unlogged: 0, total });
  }
  return {
    fetched({ url, label, seconds, outcome }) {
      metrics?.fragmentFetched(label, seconds, outcome);
      if (outcome !== 'ok') return failed(url, label, outcome, seconds);
      const last = failing.get(url);
      if (last) {
        logger.info({ remote: label, url, failures: last.total }, 'fragment fetched again');
        failing.delete(url);
      }
    },
    refused({ url, label }) {
      metrics?.fragmentRefused(label);
      failed(url, label, 'unvouched', 0);
    },
    hit(label) {
      metrics?.fragmentCacheHit(label);
    },
  };
}

module.exports = { fragmentEvents };

// Which side of each running canary a request's visitor is on, on the built-in server: their bucket cookie (set by
// their browser, @nativegtm/contract/canaryBuckets) against each remote's canary in the store (canaryInStore.js),
// looked at no more often than every CHECK_INTERVAL_MS, so a change of share or an abort is served within a second.
// A request without a bucket (a first visit, a visitor on no side, a crawler) is on no side: it gets today's shared
// documents, and costs no look at the store. Every document lists the running canaries' shares, for browsers to
// know whether to send their bucket (@nativegtm/contract/canaryBuckets).
const { BUCKET_COOKIE, parseBucket, sideOf } = require('@nativegtm/contract/canaryBuckets');
const { runningCanary } = require('@nativegtm/store/canaryInStore');
const { storeLayout } = require('@nativegtm/store/layout');

/**
 * A visitor's place in one remote's canary: `canary` gets the release `id`, `control` gets live, measured alike.
 * @typedef {{ remote: string, side: 'canary' | 'control', id: string }} CanarySide
 */

/**
 * @param {{ storeDir: string, remoteNames: string[], onProblem?: (remote: string, problem: string) => void }} options
 *   onProblem: told once per distinct problem of a remote's canary state (that remote's visitors then all get live)
 */
function createCanaries({ storeDir, remoteNames, onProblem = () => {} }) {
  const canaries = remoteNames.map((remote) => ({
    remote,
    running: runningCanary(storeLayout(storeDir, remote), { onProblem: (problem) => onProblem(remote, problem) }),
  }));

  /**
   * The request's sides, one per remote whose canary has this visitor in it or in its control group.
   * @param {Record<string, string | undefined>} cookies the request's, parsed
   * @returns {CanarySide[]}
   */
  function sidesOf(cookies) {
    const bucket = parseBucket(cookies[BUCKET_COOKIE]);
    if (bucket === undefined) return [];
    /** @type {CanarySide[]} */
    const sides = [];
    for (const { remote, running } of canaries) {
      const canary = running();
      if (!canary) continue;
      const side = sideOf(bucket, remote, canary.share);
      if (side !== 'outside') sides.push({ remote, side, id: canary.id });
    }
    return sides;
  }

  /** The running canaries and their shares now. */
  function shares() {
    return canaries.flatMap(({ remote, running }) => {
      const canary = running();
      return canary ? [{ remote, share: canary.share }] : [];
    });
  }

  return { sidesOf, shares };
}

module.exports = { createCanaries };

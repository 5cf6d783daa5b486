// The rate cap of signed beacons: per token (the document it proves), a bucket of TOKEN_BURST beacons refilled at
// TOKEN_PER_SECOND, far above what one page sends honestly (a beacon per view, MAX_VIEWS_PER_DOCUMENT views counted),
// far below what a script holding one token could post. The buckets are kept in an LRU map of at most MAX_TOKENS per
// process, so the cap's memory is bounded whatever the number of tokens posted: a token pushed out of it (by
// MAX_TOKENS others more recently used) starts again with a full bucket. That is the cap's limit, stated in
// docs/field-data.md; the store's byte budget (storeBudget.js) bounds the disk beyond it.
const { LRUCache } = require('lru-cache');

/** Beacons one token may post at once, and a second after. */
const TOKEN_BURST = 40;
const TOKEN_PER_SECOND = 0.5;
/** Tokens whose buckets one process keeps (about 100 bytes each). */
const MAX_TOKENS = 50_000;

/**
 * @param {{ burst?: number, perSecond?: number, maxTokens?: number, now?: () => number }} [options]
 */
function createTokenRates({
  burst = TOKEN_BURST,
  perSecond = TOKEN_PER_SECOND,
  maxTokens = MAX_TOKENS,
  now = Date.now,
} = {}) {
  /** @type {LRUCache<string, { left: number, at: number }>} */
  const buckets = new LRUCache({ max: maxTokens });
  return {
    /**
     * Takes one beacon from the token's bucket, if any is left.
     * @param {string} token the document id the token proves
     */
    allowed(token) {
      const time = now();
      const bucket = buckets.get(token) ?? { left: burst, at: time };
      bucket.left = Math.min(burst, bucket.left + ((time - bucket.at) / 1000) * perSecond);
      bucket.at = time;
      buckets.set(token, bucket);
      if (bucket.left < 1) return false;
      bucket.left -= 1;
      return true;
    },
  };
}

module.exports = { createTokenRates, TOKEN_BURST };

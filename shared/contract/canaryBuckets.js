// Who sees a remote's canary release. Every visitor's browser draws a random bucket, 0 to 99, on its first page and
// keeps it (localStorage). While a remote's canary runs at a share s (percent), counting the buckets from that
// remote's offset on, the first s are the canary, the last s the control group (on live, measured like the canary),
// the ones between outside (today's shared documents). As the share grows, both groups grow towards each other: a
// visitor in the canary stays in it, one in the control stays in it, until the promote. Each remote has its own
// offset, so that two remotes' canaries at once do not take the same visitors.
//
// The documents list the running canaries' shares (a meta tag). A browser on a side of any of them sends its bucket
// in a cookie it sets itself, and clears it when it is on none: so only requests that must be personal carry it, a
// shared cache in front passes those to the origin and keeps serving everyone else the shared documents, and no
// server ever sets a cookie for it. Every server computes the same side from the same bucket: the built-in server with
// these functions, nginx from files the canary command writes with them. A bucket says nothing about a visitor (it is
// one of a hundred values, and no field data carries it).

/** The cookie's name; its value is the bucket in decimal. */
const BUCKET_COOKIE = 'nativegtm_bucket';
/** How many buckets there are: a share is a whole percent. */
const BUCKETS = 100;
/** Where a browser keeps its bucket between visits: localStorage, under this key. */
const BUCKET_STORAGE_KEY = 'nativegtm-bucket';
/**
 * How long the cookie lasts without a page to renew or clear it: a day. A visitor back after a canary ended sends it
 * once (that document is not a shared cache's), and their page clears it.
 */
const BUCKET_COOKIE_MAX_AGE_SECONDS = 24 * 3600;
/** The meta tag of every document that lists the running canaries: `<remote>=<share>`, separated by spaces. */
const CANARIES_META = 'nativegtm-canaries';

/** @typedef {'canary' | 'control' | 'outside'} CanarySide */

/**
 * The bucket a cookie's value names, or undefined for anything but a bucket written as the browser writes it.
 * @param {string | undefined} value
 * @returns {number | undefined}
 */
function parseBucket(value) {
  return value !== undefined && /^(?:0|[1-9]\d?)$/.test(value) ? Number(value) : undefined;
}

/**
 * A new visitor's bucket.
 * @param {() => number} [random] uniform in [0, 1)
 */
function newBucket(random = Math.random) {
  return Math.min(BUCKETS - 1, Math.floor(random() * BUCKETS));
}

/**
 * Where a remote's buckets start counting: FNV-1a of its name, so every server and every build agree without
 * configuration.
 * @param {string} remote
 */
function bucketOffset(remote) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < remote.length; index += 1) {
    hash ^= remote.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % BUCKETS;
}

/**
 * The control group's share for a canary's: the same, while the two fit in everyone (up to 50 each), then all the
 * others.
 * @param {number} share 0 to 100
 */
function controlShare(share) {
  return Math.min(share, BUCKETS - share);
}

/**
 * Which side of a remote's canary at `share` percent a bucket is on.
 * @param {number} bucket
 * @param {string} remote
 * @param {number} share 0 to 100
 * @returns {CanarySide}
 */
function sideOf(bucket, remote, share) {
  const place = (bucket - bucketOffset(remote) + BUCKETS) % BUCKETS;
  if (place < share) return 'canary';
  if (place >= BUCKETS - controlShare(share)) return 'control';
  return 'outside';
}

/**
 * What a browser writes to send its bucket (document.cookie), or with `bucket` undefined to stop sending it: the whole
 * site, first-party only, sent on navigations.
 * @param {number | undefined} bucket
 * @param {{ secure: boolean }} options secure: the page is on https
 */
function bucketCookie(bucket, { secure }) {
  const maxAge = bucket === undefined ? 0 : BUCKET_COOKIE_MAX_AGE_SECONDS;
  const attributes = [`Path=/`, `Max-Age=${maxAge}`, 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
  return [`${BUCKET_COOKIE}=${bucket ?? ''}`, ...attributes].join('; ');
}

/**
 * The running canaries' shares as the documents' meta tag lists them.
 * @param {{ remote: string, share: number }[]} canaries
 */
function canariesContent(canaries) {
  return canaries.map(({ remote, share }) => `${remote}=${share}`).join(' ');
}

/**
 * The shares a meta tag's content lists; what is not `<remote>=<share>` is left out.
 * @param {string} content
 * @returns {{ remote: string, share: number }[]}
 */
function parseCanaries(content) {
  return content.split(/\s+/).flatMap((entry) => {
    const match = /^([a-z][A-Za-z0-9-]{0,39})=(0|[1-9]\d?|100)$/.exec(entry);
    return match ? [{ remote: /** @type {string} */ (match[1]), share: Number(match[2]) }] : [];
  });
}

/**
 * Whether a bucket is on a side (canary or control) of any of the canaries.
 * @param {number} bucket
 * @param {{ remote: string, share: number }[]} canaries
 */
function onAnySide(bucket, canaries) {
  return canaries.some(({ remote, share }) => sideOf(bucket, remote, share) !== 'outside');
}

module.exports = {
  BUCKET_COOKIE,
  BUCKET_STORAGE_KEY,
  BUCKETS,
  CANARIES_META,
  parseBucket,
  newBucket,
  bucketOffset,
  controlShare,
  sideOf,
  bucketCookie,
  canariesContent,
  parseCanaries,
  onAnySide,
};

// Who sees a remote's canary release. Every visitor's browser keeps a random bucket, 0 to 99, in a first-party cookie
// it sets itself on its first page; the servers only read it. A bucket says nothing about a visitor (it is one of a
// hundred values, and no field data carries it), and since no server ever sets it, no response a cache shares carries
// a Set-Cookie for it.
//
// While a remote's canary runs at a share s (percent), counting the buckets from that remote's offset on, the first s
// are the canary, the last s the control group (on live, measured like the canary), the ones between outside (today's
// shared documents). As the share grows, both groups grow towards each other: a visitor in the canary stays in it,
// one in the control stays in it, until the promote. Each remote has its own offset, so that two remotes' canaries at
// once do not take the same visitors. Every server computes the same side from the same bucket: the built-in server with these functions,
// nginx from what its configuration is generated with them.

/** The cookie's name; its value is the bucket in decimal. */
const BUCKET_COOKIE = 'nativegtm-bucket';
/** How many buckets there are: a share is a whole percent. */
const BUCKETS = 100;
/** How long a browser keeps its bucket: the longest a browser keeps a cookie (Chromium caps it at 400 days). */
const BUCKET_MAX_AGE_SECONDS = 400 * 24 * 3600;

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
 * What a browser writes to keep its bucket (document.cookie): the whole site, first-party only, sent on navigations.
 * @param {number} bucket
 * @param {{ secure: boolean }} options secure: the page is on https
 */
function bucketCookie(bucket, { secure }) {
  const attributes = [`Path=/`, `Max-Age=${BUCKET_MAX_AGE_SECONDS}`, 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
  return [`${BUCKET_COOKIE}=${bucket}`, ...attributes].join('; ');
}

module.exports = { BUCKET_COOKIE, BUCKETS, parseBucket, newBucket, bucketOffset, controlShare, sideOf, bucketCookie };

// Where a store on PostgreSQL keeps its releases' files: S3-compatible object storage (AWS, MinIO, R2, Ceph), through
// the AWS SDK, which reads the endpoint and the credentials the way it always does (AWS_ENDPOINT_URL_S3,
// AWS_ACCESS_KEY_ID, AWS_REGION, AWS_REQUEST_CHECKSUM_CALCULATION, …). RELEASES_BUCKET says where:
//
//   s3://<bucket>/<prefix>/<remote>/<id>/<path>   a release's files, exactly as its build wrote them; never changed
//
// The files go up before the release is recorded (postgresBackend.js), so that nothing can name a release whose files
// are not all there; a publish cut off in between leaves files no record names, which prune removes.
const {
  S3Client,
  PutObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  DeleteObjectCommand,
} = require('@aws-sdk/client-s3');
const { addAbortSignal } = require('node:stream');

/**
 * The bucket and the prefix of an s3:// URL, or why it is not one.
 * @param {string} url
 * @returns {{ bucket: string, prefix: string }}
 */
function parseBucketUrl(url) {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/[^\s]*)?$/.exec(url.trim());
  if (!match)
    throw new Error(
      'must be s3://<bucket>/<prefix>, a bucket name of 3 to 63 lower-case letters, digits, dots and dashes',
    );
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '.' || part === '..'))
    throw new Error('must not have . or .. in its prefix');
  return { bucket: /** @type {string} */ (match[1]), prefix };
}

/**
 * How long a request to the bucket may go without a byte either way before it is given up: a node copies a release
 * under its store's lock, so a GET that stalls for good (a half-open connection, a storage node gone mid-answer) must
 * not hold every later change of that remote back. The SDK sets no such limit by default; it arms one of 6 s or more
 * 3 s into the request, so a stall is given up 10 to 13 s after the last byte.
 */
const IDLE_MS = 10_000;
/** How long connecting to the bucket may take. */
const CONNECT_MS = 5_000;
/**
 * How long one object's GET may take in all: an answer that trickles a byte at a time is never idle, and would hold
 * the lock as a stalled one does. Two minutes is a release's largest file many times over on a slow link.
 */
const OBJECT_MS = 120_000;

/**
 * A store's files in a bucket.
 * @param {string} url RELEASES_BUCKET
 * @param {{ env?: NodeJS.ProcessEnv, idleMs?: number, objectMs?: number }} [options] idleMs, objectMs: the limits
 *   above, shorter in tests
 */
function openObjectStore(url, { env = process.env, idleMs = IDLE_MS, objectMs = OBJECT_MS } = {}) {
  const { bucket, prefix } = parseBucketUrl(url);
  // The SDK warns once, on stderr, that its releases from 2027 need Node 22: a line in every command's output. The
  // version is pinned (docs/versions-and-upgrades.md says what raising it takes).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const custom = Boolean(env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL);
  const client = new S3Client({
    // The SDK needs a region even where the store has none (MinIO, s3rver).
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    // Endpoints of one's own (MinIO, Ceph, a test's s3rver) are addressed by path: their buckets have no host names.
    forcePathStyle: custom,
    requestHandler: { connectionTimeout: CONNECT_MS, socketTimeout: idleMs },
  });
  const keyOf = (/** @type {string} */ name) => (prefix ? `${prefix}/${name}` : name);
  return {
    where: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
    /**
     * @param {string} name relative to the prefix
     * @param {Buffer} body
     */
    put: async (name, body) =>
      void (await client.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(name), Body: body }))),
    /**
     * The object's bytes, but never more than `maxBytes` + 1 of them: enough for the caller to tell that an object is
     * larger than the file it expects (a planted or torn one) without holding a huge one in memory. `signal` ends the
     * GET, as does running past the time one object may take.
     * @param {string} name
     * @param {{ maxBytes?: number, signal?: AbortSignal }} [options]
     * @returns {Promise<Buffer>}
     */
    get: async (name, { maxBytes = Infinity, signal } = {}) => {
      // A timer of our own, not AbortSignal.timeout: combined by AbortSignal.any, that signal is only weakly held on
      // Node 20, and a garbage collection could drop it and the limit with it (fragmentCache.js says the same).
      const ending = new AbortController();
      const timer = setTimeout(() => ending.abort(new Error(`${name} took more than ${objectMs} ms`)), objectMs);
      const stop = () => ending.abort(signal?.reason);
      signal?.addEventListener('abort', stop, { once: true });
      if (signal?.aborted) stop();
      try {
        const abortSignal = ending.signal;
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(name) }), { abortSignal });
        /** @type {Buffer[]} */
        const chunks = [];
        let length = 0;
        if (answer.Body) {
          const body = addAbortSignal(abortSignal, /** @type {import('node:stream').Readable} */ (answer.Body));
          for await (const chunk of body) {
            chunks.push(chunk);
            length += chunk.length;
            // Leaving the loop destroys the body: the rest is never read.
            if (length > maxBytes) break;
          }
        }
        return Buffer.concat(chunks, Math.min(length, maxBytes + 1));
      } catch (error) {
        // Why it was ended (the time ran out, the caller's reason), not the stream's "The operation was aborted".
        throw ending.signal.aborted ? ending.signal.reason : error;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
      }
    },
    /**
     * Every object under `under` (relative to the prefix), with when it was written.
     * @param {string} under
     * @returns {Promise<{ name: string, modified: Date | undefined }[]>}
     */
    list: async (under) => {
      /** @type {{ name: string, modified: Date | undefined }[]} */
      const found = [];
      /** @type {string | undefined} */
      let token;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: keyOf(under), ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key) found.push({ name: object.Key.slice(keyOf('').length), modified: object.LastModified });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found;
    },
    /** @param {string} name */
    remove: async (name) => void (await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(name) }))),
    close: () => client.destroy(),
  };
}

/** @typedef {ReturnType<typeof openObjectStore>} ObjectStore */

module.exports = { openObjectStore, parseBucketUrl };

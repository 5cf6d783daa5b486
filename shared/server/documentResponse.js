// The response of a composed document: compressed when the client accepts it, with the caching rules and validators
// of documentCaching.js, and "not modified" to a client (a CDN, a browser) that already holds the same bytes. A
// document for everyone is sent from its encodings, made once per text: ready before it is asked for when
// sharedDocuments.js keeps it, or on its first request when it was composed for that request.
const zlib = require('node:zlib');
const { promisify } = require('node:util');
const { LRUCache } = require('lru-cache');
const Negotiator = require('negotiator');
const { documentCacheControl, documentEtag, encodedEtag, isFresh } = require('./documentCaching');

/** The encodings a document is sent in, best first: brotli is smaller than gzip at the same cost per request. */
const ENCODINGS = ['br', 'gzip', 'identity'];

/** Compression settings: the same whether a document is encoded ahead of its requests or on the first. */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };
const GZIP = { level: 6 };
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * A document's bytes in each encoding, each with its validator. A personal document (a preview's, a canary side's:
 * `private, no-store`) has no validator: nothing keeps it to revalidate it, so hashing it would be waste.
 * @typedef {{ text: string, identity: Buffer, br?: Buffer, gzip?: Buffer, validated: boolean }} Encoded
 */

/**
 * Documents composed on request, by their text: the same page is composed from the same files many times a second,
 * and hashing and compressing it per request was most of a document's cost under load. The site has a few dozen
 * distinct documents; the least recently sent go first.
 * @type {LRUCache<string, Encoded>}
 */
const encodedCache = new LRUCache({ max: 64 });

/**
 * @param {string} html
 * @param {boolean} personal sent to one visitor only (a document with its own token): not kept, it would only push
 *   out the shared documents
 * @returns {Encoded}
 */
function encodedDocument(html, personal) {
  if (personal) return { text: html, identity: Buffer.from(html), validated: false };
  let encoded = encodedCache.get(html);
  if (!encoded) {
    encoded = { text: html, identity: Buffer.from(html), validated: true };
    encodedCache.set(html, encoded);
  }
  return encoded;
}

/**
 * A document for everyone with every encoding made, off the event loop: what sharedDocuments.js holds ready.
 * @param {string} html
 * @returns {Promise<Encoded>}
 */
async function encodeAhead(html) {
  const identity = Buffer.from(html);
  const [br, gz] = await Promise.all([brotli(identity, BROTLI), gzip(identity, GZIP)]);
  return { text: html, identity, br, gzip: gz, validated: true };
}

/**
 * @param {Encoded} encoded
 * @param {'br' | 'gzip'} encoding
 * @returns {Buffer}
 */
function compressed(encoded, encoding) {
  encoded[encoding] ??=
    encoding === 'br' ? zlib.brotliCompressSync(encoded.identity, BROTLI) : zlib.gzipSync(encoded.identity, GZIP);
  return encoded[encoding];
}

/**
 * The validators of one document, by encoding, its text hashed once.
 * @type {WeakMap<Encoded, { text: string } & Partial<Record<'br' | 'gzip', string>>>}
 */
const etags = new WeakMap();
/**
 * @param {Encoded} encoded
 * @param {'br' | 'gzip' | undefined} encoding
 */
function etagOf(encoded, encoding) {
  let known = etags.get(encoded);
  if (!known) etags.set(encoded, (known = { text: documentEtag(encoded.text) }));
  return encoding ? (known[encoding] ??= encodedEtag(known.text, encoding)) : known.text;
}

/**
 * The encoding to send, by the request's Accept-Encoding (RFC 9110 12.5.3, q=0 meaning "not this"): brotli, then
 * gzip, then none. A client that refuses even identity still gets it: a document it cannot decode helps no one more
 * than one it did not ask for in that form.
 * @param {import('node:http').IncomingMessage} req
 * @returns {'br' | 'gzip' | undefined}
 */
function acceptedEncoding(req) {
  const encoding = new Negotiator(req).encoding(ENCODINGS, { preferred: ENCODINGS });
  return encoding === 'br' || encoding === 'gzip' ? encoding : undefined;
}

/**
 * Sends a document in the encoding the client accepts best, or 304 when the client's copy is the same bytes.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {Encoded} encoded
 * @param {Record<string, string>} headers the document's own headers (security policy, a preview's caching)
 * @param {string | undefined} timing its Server-Timing
 */
function send(req, res, status, encoded, headers, timing) {
  res.statusCode = status;
  // The document's own headers may say otherwise (a preview is personal).
  res.setHeader('Cache-Control', documentCacheControl(status));
  for (const name in headers) res.setHeader(name, /** @type {string} */ (headers[name]));
  if (timing) res.setHeader('Server-Timing', timing);
  res.setHeader('Vary', 'Accept-Encoding');
  const encoding = acceptedEncoding(req);
  const etag = encoded.validated ? etagOf(encoded, encoding) : undefined;
  if (etag) res.setHeader('ETag', etag);
  if (etag && status === 200 && isFresh(req.headers, etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  const body = encoding ? compressed(encoded, encoding) : encoded.identity;
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Sends a document composed for this request.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ status: number, html: string }} document
 * @param {Record<string, string>} headers the document's own headers (security policy, a preview's caching)
 * @param {{ personal?: boolean, timing?: string }} [options] personal: this text is for this response only
 *   (encodedDocument); timing: its Server-Timing
 */
function sendDocument(req, res, { status, html }, headers, { personal = false, timing } = {}) {
  send(req, res, status, encodedDocument(html, personal), headers, timing);
}

/**
 * Sends a document sharedDocuments.js held ready.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ status: number, encoded: Encoded, timing: string | undefined }} ready
 * @param {Record<string, string>} headers
 */
function sendReady(req, res, { status, encoded, timing }, headers) {
  send(req, res, status, encoded, headers, timing);
}

module.exports = { acceptedEncoding, encodeAhead, sendDocument, sendReady };

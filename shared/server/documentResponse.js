// The response of a composed document: compressed when the client accepts it (unlike the static files, a document
// has no precompressed copy on disk), with the caching rules and validator of documentCaching.js, and "not modified"
// to a client (a CDN, a browser) that already holds the same text.
const zlib = require('node:zlib');
const { LRUCache } = require('lru-cache');
const Negotiator = require('negotiator');
const { documentCacheControl, documentEtag, isFresh } = require('./documentCaching');

/** The encodings a document is sent in, best first: brotli is smaller than gzip at the same cost per request. */
const ENCODINGS = ['br', 'gzip', 'identity'];

/**
 * What is sent of a document, by its text: its validator and its bytes in each encoding, made once. The same page is
 * composed from the same files many times a second, and hashing and compressing it per request was most of a
 * document's cost under load. The site has a few dozen distinct documents; the least recently sent go first.
 * @typedef {{ etag?: string, identity: Buffer, br?: Buffer, gzip?: Buffer }} Encoded  etag: none for a personal
 *   document
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
  // `private, no-store`: nothing keeps a personal document to revalidate it, so hashing it for a validator is waste.
  if (personal) return { identity: Buffer.from(html) };
  let encoded = encodedCache.get(html);
  if (!encoded) {
    encoded = { etag: documentEtag(html), identity: Buffer.from(html) };
    encodedCache.set(html, encoded);
  }
  return encoded;
}

/**
 * @param {Encoded} encoded
 * @param {'br' | 'gzip'} encoding
 * @returns {Buffer}
 */
function compressed(encoded, encoding) {
  encoded[encoding] ??=
    encoding === 'br'
      ? zlib.brotliCompressSync(encoded.identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
      : zlib.gzipSync(encoded.identity, { level: 6 });
  return encoded[encoding];
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
 * Sends a composed document, compressed when the client accepts it, or 304 when the client's copy is the same text.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ status: number, html: string }} document
 * @param {Record<string, string>} headers the document's own headers (security policy, a preview's caching)
 * @param {{ personal?: boolean, timing?: string }} [options] personal: this text is for this response only
 *   (encodedDocument); timing: its Server-Timing
 */
function sendDocument(req, res, { status, html }, headers, { personal = false, timing } = {}) {
  res.statusCode = status;
  // The document's own headers may say otherwise (a preview is personal).
  res.setHeader('Cache-Control', documentCacheControl(status));
  for (const name in headers) res.setHeader(name, /** @type {string} */ (headers[name]));
  if (timing) res.setHeader('Server-Timing', timing);
  res.setHeader('Vary', 'Accept-Encoding');
  const encoded = encodedDocument(html, personal);
  const { etag } = encoded;
  if (etag) res.setHeader('ETag', etag);
  if (etag && status === 200 && isFresh(req.headers, etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  const encoding = acceptedEncoding(req);
  const body = encoding ? compressed(encoded, encoding) : encoded.identity;
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

module.exports = { sendDocument, acceptedEncoding };

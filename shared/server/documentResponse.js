// The response of a composed document: compressed when the client accepts it (unlike the static files, a document
// has no precompressed copy on disk), with the caching rules and validator of documentCaching.js, and "not modified"
// to a client (a CDN, a browser) that already holds the same text.
const zlib = require('node:zlib');
const { documentCacheControl, documentEtag, matchesIfNoneMatch } = require('./documentCaching');

/**
 * What is sent of a document, by its text: its validator and its bytes in each encoding, made once. The same page is
 * composed from the same files many times a second, and hashing and compressing it per request was most of a
 * document's cost under load.
 * @typedef {{ etag: string, identity: Buffer, br?: Buffer, gzip?: Buffer }} Encoded
 * @type {Map<string, Encoded>}
 */
const encodedCache = new Map();

/**
 * @param {string} html
 * @returns {Encoded}
 */
function encodedDocument(html) {
  let encoded = encodedCache.get(html);
  if (!encoded) {
    encoded = { etag: documentEtag(html), identity: Buffer.from(html) };
    // Full, so there is a first key: the oldest entry goes.
    if (encodedCache.size >= 64) encodedCache.delete(/** @type {string} */ (encodedCache.keys().next().value));
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
 * Sends a composed document, compressed when the client accepts it, or 304 when the client's copy is the same text.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ status: number, html: string }} document
 * @param {Record<string, string>} headers the document's own headers (security policy, a preview's caching)
 */
function sendDocument(req, res, { status, html }, headers) {
  res.statusCode = status;
  // The document's own headers may say otherwise (a preview is personal).
  res.setHeader('Cache-Control', documentCacheControl(status));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Vary', 'Accept-Encoding');
  const encoded = encodedDocument(html);
  const { etag } = encoded;
  res.setHeader('ETag', etag);
  if (status === 200 && matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  const body = encoding ? compressed(encoded, encoding) : encoded.identity;
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

module.exports = { sendDocument };

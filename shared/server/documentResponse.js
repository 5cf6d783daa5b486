// The response of a composed document: compressed when the client accepts it (unlike the static files, a document
// has no precompressed copy on disk), with the caching rules and validator of documentCaching.js, and "not modified"
// to a client (a CDN, a browser) that already holds the same text.
const zlib = require('node:zlib');
const { documentCacheControl, documentEtag, matchesIfNoneMatch } = require('./documentCaching');

/**
 * Compressed documents by content: the same page is composed from the same files many times a second.
 * @type {Map<string, Buffer>}
 */
const compressedCache = new Map();

/**
 * @param {string} html
 * @param {'br' | 'gzip'} encoding
 * @returns {Buffer}
 */
function compressed(html, encoding) {
  const key = `${encoding}\n${html}`;
  let body = compressedCache.get(key);
  if (!body) {
    body =
      encoding === 'br'
        ? zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
        : zlib.gzipSync(html, { level: 6 });
    // Full, so there is a first key: the oldest entry goes.
    if (compressedCache.size >= 64) compressedCache.delete(/** @type {string} */ (compressedCache.keys().next().value));
    compressedCache.set(key, body);
  }
  return body;
}

/**
 * Sends a composed document, compressed when the client accepts it, or 304 when the client's copy is the same text.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {{ status: number, html: string }} document
 * @param {Record<string, string>} headers the document's own headers (security policy)
 */
function sendDocument(req, res, { status, html }, headers) {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', documentCacheControl(status));
  res.setHeader('Vary', 'Accept-Encoding');
  const etag = documentEtag(html);
  res.setHeader('ETag', etag);
  if (status === 200 && matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  const body = encoding ? compressed(html, encoding) : Buffer.from(html);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

module.exports = { sendDocument };

// How long a composed document may be kept, by a CDN in front of the site and by browsers, and its validator. One
// rule for both servers: the built-in one (documentResponse.js) and the nginx configuration (@nativegtm/tools/nginx).
//
// A document is the same for every visitor (the CSP comes from remotes.json; the cookies read, a preview's and a
// canary's bucket, make the documents of that preview and of a canary's two sides personal and uncacheable), so a
// shared cache may keep it for a few seconds and serve it stale while it fetches the next: the origin then
// composes each page a few times a minute per CDN node, whatever the traffic, and a deploy still shows within
// seconds without a purge. Browsers always revalidate (max-age=0), so a visitor who reloads sees the live site.
const etag = require('etag');
const fresh = require('fresh');

/** A page: 5 s at a shared cache, then served stale for up to 30 s while it is fetched again. */
const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=5, stale-while-revalidate=30';

/** The 404 document: briefly, so a path that a deploy adds does not answer 404 for long. */
const NOT_FOUND_CACHE_CONTROL = 'public, max-age=0, s-maxage=5';

/**
 * A preview of a release, or what a visitor on either side of a canary is served (releases/): that browser's alone,
 * never kept by a shared cache.
 */
const PERSONAL_CACHE_CONTROL = 'private, no-store';

/** Anything else (an error): never kept. */
const UNCACHEABLE = 'no-store';

/**
 * The Cache-Control of a document answered with `status`.
 * @param {number} status
 */
function documentCacheControl(status) {
  if (status === 200) return PAGE_CACHE_CONTROL;
  if (status === 404) return NOT_FOUND_CACHE_CONTROL;
  return UNCACHEABLE;
}

/**
 * A strong validator of a document's text (the `etag` package).
 * @param {string} html
 */
function documentEtag(html) {
  return etag(html);
}

/**
 * The validator of the document as sent in one encoding: each encoding is another representation with bytes of its
 * own, so a cache that keeps the brotli copy and one that keeps the gzip copy each revalidate their own.
 * @param {string} textEtag documentEtag of its text
 * @param {'br' | 'gzip' | undefined} encoding
 */
function encodedEtag(textEtag, encoding) {
  return encoding ? `${textEtag.slice(0, -1)}-${encoding}"` : textEtag;
}

/**
 * Whether the client's copy is still the one it would get (the `fresh` package: If-None-Match with weak comparison,
 * a list or "*"). Only If-None-Match is handed on: `fresh` also treats a request's Cache-Control: no-cache as "never
 * fresh", which is a cache's rule (RFC 9111 5.2.1.4), not an origin's; a CDN revalidating with both gets its 304.
 * @param {import('node:http').IncomingHttpHeaders} requestHeaders
 * @param {string} validator the document's ETag
 */
function isFresh(requestHeaders, validator) {
  return fresh({ 'if-none-match': requestHeaders['if-none-match'] }, { etag: validator });
}

module.exports = {
  NOT_FOUND_CACHE_CONTROL,
  PERSONAL_CACHE_CONTROL,
  PAGE_CACHE_CONTROL,
  documentCacheControl,
  documentEtag,
  encodedEtag,
  isFresh,
};

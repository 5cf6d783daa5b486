// How long nginx keeps a remote's server-rendered files (the include locations and the fragment relay in
// renderConfig.js). nginx counts a copy's lifetime in whole seconds, and takes the time a copy may be served stale
// while it is refreshed only from the response's Cache-Control: so the relay gives every answer, good or failed, these
// headers. (The built-in server keeps its copies 500 ms: fragmentCache.js.)
//
// A copy is fresh until the end of the second it was fetched in (X-Accel-Expires names that second, the Unix time
// of CURRENT_SECOND_VARIABLE), then served for one more second while one request refreshes it in the background. Under steady traffic a change of a remote (a redeploy, a failure, a recovery) shows in new
// documents about a second after it happened; after a quiet spell the first document fetches afresh.

/** Seconds a copy may be served while it is refreshed, once its second is over. */
const STALE_WHILE_REFRESHING_S = 1;

/** An nginx variable of the current Unix time in whole seconds ($msec without its fraction: a map in http {}). */
const CURRENT_SECOND_VARIABLE = 'nativegtm_second';

/** The headers the relay adds to every answer of a remote, in this order (nginx reads Cache-Control first). */
const FRAGMENT_CACHE_HEADERS = /** @type {const} */ ([
  ['Cache-Control', `stale-while-revalidate=${STALE_WHILE_REFRESHING_S}`],
  ['X-Accel-Expires', `@$${CURRENT_SECOND_VARIABLE}`],
]);

/**
 * The longest a document may show what a remote answered before it changed: the second the copy was fetched in,
 * the stale second, and the refresh itself (within the fragment timeout, 400 ms by default).
 */
const NGINX_FRAGMENT_MAX_AGE_MS = (1 + STALE_WHILE_REFRESHING_S) * 1000 + 500;

module.exports = { CURRENT_SECOND_VARIABLE, FRAGMENT_CACHE_HEADERS, NGINX_FRAGMENT_MAX_AGE_MS };

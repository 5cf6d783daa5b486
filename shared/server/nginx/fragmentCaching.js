// How long nginx keeps a remote's server-rendered files. nginx counts a copy's lifetime in whole seconds from the
// start of the second it was fetched in, so these are the shortest lifetimes it can keep. (The built-in server keeps
// its copies 500 ms: fragmentCache.js.)

/** Seconds a good copy is fresh, then seconds it may still be served while one request refreshes it. */
const FRESH_S = 1;
const STALE_WHILE_REFRESHING_S = 1;

/** Given to a good copy by the fragment relay: nginx takes the stale period only from a response's Cache-Control. */
const FRAGMENT_CACHE_CONTROL = `max-age=${FRESH_S}, stale-while-revalidate=${STALE_WHILE_REFRESHING_S}`;

/** How long a failed fetch (an error status, a redirect, a refusal, a timeout) is answered from memory, in seconds. */
const FAILURE_MEMORY_S = 1;

/**
 * The longest a document may show what a remote answered before it changed (a redeploy, a remote going down or
 * coming back): the lifetimes above, and up to a second of rounding. Under steady traffic a change shows sooner, once
 * the copy turns stale: about 1-2 s.
 */
const NGINX_FRAGMENT_MAX_AGE_MS = (Math.max(FRESH_S + STALE_WHILE_REFRESHING_S, FAILURE_MEMORY_S) + 1) * 1000;

module.exports = { FRAGMENT_CACHE_CONTROL, FAILURE_MEMORY_S, NGINX_FRAGMENT_MAX_AGE_MS };

// What a document waited for from its page's remote, sent as its Server-Timing header so that a team sees in DevTools
// (Network → Timing) how its fragment reached the page: the time from the first of the remote's files the document
// asked for (manifest, head, body) to the last one answered, and whether every one came from the fragment cache
// (hit), one had to be fetched (miss), one could not be had (failed: the page renders in the browser), or one did not
// come in time (timeout: the same, for want of time). A document composed ahead of its request (sharedDocuments.js)
// waited for nothing, and says so. The release gate reads the header too (fragmentTimedOut): a document without its
// page's HTML for want of time says nothing of the release it composed.

/** @typedef {'hit' | 'miss' | 'failed' | 'timeout'} FragmentCache */
/** @typedef {{ remote: string, ms: number, cache: FragmentCache }} FragmentTiming */

/** How the header says each outcome. */
const SAID = { hit: 'cache hit', miss: 'cache miss', failed: 'failed', timeout: 'timed out' };

/**
 * The worse of two outcomes: a file not had in time over one that failed (had the time run out for none, the
 * document might have had every file), a failure over a fetch, a fetch over a copy.
 */
const RANK = { hit: 0, miss: 1, failed: 2, timeout: 3 };

/**
 * Times the fetches of one document's fragment files from one remote.
 * @param {string} remote
 */
function createFragmentTimer(remote) {
  let first = Infinity;
  let last = -Infinity;
  /** @type {FragmentCache} */
  let cache = 'hit';
  return {
    /**
     * Runs one fetch of the fragment cache, counting how long it took and how it was answered.
     * @param {(answered: (from: 'copy' | 'failure' | 'fetch' | 'timeout') => void) => Promise<string | null>} fetching
     */
    async time(fetching) {
      const started = performance.now();
      // Typed by a cast, not a declaration: TypeScript would take it for 'copy' alone, never set by the callback.
      let from = /** @type {'copy' | 'failure' | 'fetch' | 'timeout'} */ ('copy');
      const text = await fetching((how) => {
        from = how;
      });
      /** @type {FragmentCache} */
      const outcome = text === null ? (from === 'timeout' ? 'timeout' : 'failed') : from === 'copy' ? 'hit' : 'miss';
      if (RANK[outcome] > RANK[cache]) cache = outcome;
      first = Math.min(first, started);
      last = Math.max(last, performance.now());
      return text;
    },
    /** @returns {FragmentTiming | undefined} nothing when no file was asked for (no remote in remotes.json) */
    result: () => (last < first ? undefined : { remote, ms: last - first, cache }),
  };
}

/**
 * The Server-Timing header's value: `fragment;desc="jobs: cache miss";dur=12.3`.
 * @param {FragmentTiming} timing
 * @param {boolean} reused the document was composed ahead of the request
 */
function serverTiming({ remote, ms, cache }, reused) {
  const desc = `${remote}: ${reused ? 'document reused' : SAID[cache]}`;
  return `fragment;desc="${desc}";dur=${reused ? 0 : Math.round(ms * 10) / 10}`;
}

/**
 * Whether the document went out without its page's HTML: a file could not be had, or not in time.
 * @param {FragmentTiming} timing
 */
const missedFragment = ({ cache }) => cache === 'failed' || cache === 'timeout';

/**
 * Whether a document's Server-Timing (serverTiming's value) says its page's HTML did not come in time. (A document
 * composed ahead says how it came no more, but only one whose page's HTML came is kept ready.)
 * @param {string | null | undefined} header
 */
const fragmentTimedOut = (header) => /^fragment;desc="[^"]*: timed out";/.test(header ?? '');

/**
 * The header's value for a page an override serves from a dev server: the server fetched nothing of it.
 * @param {{ remote: string, origin: string }} override
 */
const renderedInBrowserTiming = ({ remote, origin }) =>
  `fragment;desc="${remote}: rendered in the browser from ${origin}";dur=0`;

module.exports = { createFragmentTimer, fragmentTimedOut, missedFragment, renderedInBrowserTiming, serverTiming };

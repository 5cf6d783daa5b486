/** @jest-environment node */
const zlib = require('node:zlib');
const { createSharedDocuments } = require('./sharedDocuments');
const { createMetrics } = require('./observability/metrics');

/** @typedef {import('./documentComposer').ComposedDocument} ComposedDocument */
/** @typedef {import('./fragmentTiming').FragmentCache} FragmentCache */

const JOBS_QUERY = { function: ['sales', 'marketing'], remote: ['yes'] };

/**
 * A stand-in for the composer: each page's text and how its fragment came are set by the test, and every call is
 * recorded. A document names the query it was composed for, so a test sees which variant it got.
 */
function fakeComposer() {
  /**
   * failing: the queries whose page HTML does not come (a variant's file failing), whatever `cache` says.
   * @type {Record<string, { text: string, cache: FragmentCache, query?: Record<string, string[]>,
   *   failing?: Set<string> }>}
   */
  const pages = {
    '/employers': { text: 'employers v1', cache: 'hit' },
    '/featured-jobs': { text: 'jobs v1', cache: 'hit', query: JOBS_QUERY },
    '/_compose/not-found': { text: 'not found', cache: 'hit' },
  };
  /** @type {string[]} */
  const calls = [];
  /**
   * @param {string} url
   * @returns {Promise<ComposedDocument>}
   */
  async function compose(url) {
    calls.push(url);
    const at = url.indexOf('?');
    const path = at === -1 ? url : url.slice(0, at);
    const search = at === -1 ? '' : url.slice(at);
    const page = pages[path];
    if (!page) throw new Error(`no page ${path}`);
    const missed = page.cache === 'failed' || page.cache === 'timeout' || Boolean(page.failing?.has(search));
    return {
      status: path === '/_compose/not-found' ? 404 : 200,
      html: missed ? `${path}: no HTML` : `${page.text} ${search}`,
      route: path === '/_compose/not-found' ? undefined : path,
      fragment: { remote: 'r', ms: 1, cache: missed && page.cache === 'hit' ? 'failed' : page.cache },
      query: missed ? undefined : page.query,
    };
  }
  return { pages, calls, compose };
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `rounds` more rounds of composing have ended (each composes the default variant of every page first).
 * @param {ReturnType<typeof createSharedDocuments>} shared
 * @param {string[]} calls
 * @param {number} [rounds]
 */
async function rounds(shared, calls, rounds = 1) {
  for (let i = 0; i < rounds; i += 1) {
    const before = calls.length;
    while (calls.length === before) await sleep(2);
    await shared.settled();
  }
}

/** @param {ReturnType<ReturnType<typeof createSharedDocuments>['lookup']>} found */
const readyOf = (found) => ('ready' in found ? found.ready : undefined);

/**
 * @param {ReturnType<typeof createSharedDocuments>['lookup']} lookup
 * @param {string | undefined} route
 * @param {string} search
 */
function readyHtml(lookup, route, search) {
  const found = lookup(route, search);
  return 'ready' in found ? found.ready.html : found.reason;
}

describe('shared documents', () => {
  /** @type {ReturnType<typeof createSharedDocuments>[]} */
  const open = [];
  afterEach(() => open.splice(0).forEach((shared) => shared.close()));

  /** @param {Partial<Parameters<typeof createSharedDocuments>[0]>} [options] */
  function setUp(options = {}) {
    const composer = fakeComposer();
    const metrics = createMetrics();
    const shared = createSharedDocuments({ compose: composer.compose, intervalMs: 5, metrics, ...options });
    open.push(shared);
    return { ...composer, metrics, shared };
  }

  it('composes a page asked for ahead of its next request, ready in every encoding with a validator each', async () => {
    const { shared, calls } = setUp();
    expect(shared.lookup('/employers', '')).toEqual({ reason: 'not-ready' });
    await rounds(shared, calls);
    const found = shared.lookup('/employers', '');
    if (!('ready' in found)) throw new Error(found.reason);
    const { encoded, status, timing } = found.ready;
    expect([status, encoded.identity.toString()]).toEqual([200, 'employers v1 ']);
    expect(zlib.brotliDecompressSync(/** @type {Buffer} */ (encoded.br)).toString()).toBe('employers v1 ');
    expect(zlib.gunzipSync(/** @type {Buffer} */ (encoded.gzip)).toString()).toBe('employers v1 ');
    expect(timing).toBe('fragment;desc="r: document reused";dur=0');
    // Nothing but the page asked for is composed.
    expect(new Set(calls)).toEqual(new Set(['/employers']));
  });

  it('keeps the same ready document while its text is the same, and swaps in a changed one whole', async () => {
    const { shared, calls, pages } = setUp();
    shared.lookup('/employers', '');
    await rounds(shared, calls);
    const first = readyOf(shared.lookup('/employers', ''));
    await rounds(shared, calls, 2);
    // Encoded once: the very object, not an equal one.
    expect(first).toBeDefined();
    expect(readyOf(shared.lookup('/employers', ''))).toBe(first);
    /** @type {Set<string>} */
    const seen = new Set();
    const watching = setInterval(() => seen.add(readyHtml(shared.lookup, '/employers', '')), 0);
    /** @type {{ text: string }} */ (pages['/employers']).text = 'employers v2';
    await rounds(shared, calls, 2);
    clearInterval(watching);
    seen.add(readyHtml(shared.lookup, '/employers', ''));
    // Every lookup saw one whole document, the old or the new.
    expect([...seen].every((html) => html === 'employers v1 ' || html === 'employers v2 ')).toBe(true);
    expect(readyHtml(shared.lookup, '/employers', '')).toBe('employers v2 ');
  });

  it("holds every variant of a page's query ready, found by the rule the servers read a raw query with", async () => {
    const { shared, calls } = setUp();
    shared.lookup('/featured-jobs', '');
    await rounds(shared, calls, 2);
    // 3 values of function (none, sales, marketing) times 2 of remote (none, yes).
    expect(new Set(calls).size).toBe(6);
    expect(readyHtml(shared.lookup, '/featured-jobs', '?function=sales&remote=yes')).toBe(
      'jobs v1 ?function=sales&remote=yes',
    );
    expect(readyHtml(shared.lookup, '/featured-jobs', '?remote=yes&utm_source=x&function=sales')).toBe(
      'jobs v1 ?function=sales&remote=yes',
    );
    // Rounds with nothing changed compose the default variant alone.
    const composed = calls.length;
    await rounds(shared, calls, 2);
    expect(calls.slice(composed).every((url) => url === '/featured-jobs')).toBe(true);
    // Unknown, repeated or garbled values are the default variant.
    expect(readyHtml(shared.lookup, '/featured-jobs', '?function=ops&function=sales')).toBe('jobs v1 ');
    // Only decoding could tell: composed on request, where the page renders in the browser.
    expect(shared.lookup('/featured-jobs', '?f%75nction=sales')).toEqual({ reason: 'undecidable' });
  });

  it('composes on request a page with more variants than the bound, and says so', async () => {
    const { shared, calls, metrics } = setUp({ maxVariants: 5 });
    shared.lookup('/featured-jobs', '');
    await rounds(shared, calls, 2);
    expect(shared.lookup('/featured-jobs', '?function=sales')).toEqual({ reason: 'too-many-variants' });
    // Only the default variant is composed each round, to learn the query.
    expect(new Set(calls)).toEqual(new Set(['/featured-jobs']));
    expect(await metrics.registry.metrics()).toContain('nativegtm_shared_documents{route="/featured-jobs"} 0');
  });

  it("keeps the last good documents in service while the page's remote fails, and says so", async () => {
    const { shared, calls, pages, metrics } = setUp();
    const jobs = /** @type {{ cache: FragmentCache, text: string }} */ (pages['/featured-jobs']);
    shared.lookup('/featured-jobs', '');
    await rounds(shared, calls, 2);
    for (const cache of /** @type {const} */ (['failed', 'timeout'])) {
      jobs.cache = cache;
      await rounds(shared, calls, 2);
      expect(readyHtml(shared.lookup, '/featured-jobs', '?function=marketing')).toBe('jobs v1 ?function=marketing');
      expect(await metrics.registry.metrics()).toContain('nativegtm_shared_documents_kept{route="/featured-jobs"} 1');
    }
    jobs.cache = 'miss';
    jobs.text = 'jobs v2';
    await rounds(shared, calls, 2);
    expect(readyHtml(shared.lookup, '/featured-jobs', '?function=marketing')).toBe('jobs v2 ?function=marketing');
    const text = await metrics.registry.metrics();
    expect(text).toContain('nativegtm_shared_documents_kept{route="/featured-jobs"} 0');
    expect(text).toContain('nativegtm_shared_documents{route="/featured-jobs"} 6');
  });

  it("composes a variant kept from the build before in every round until it is whole, the page's others left", async () => {
    const { shared, calls, pages } = setUp();
    const jobs = /** @type {{ text: string, failing?: Set<string> }} */ (pages['/featured-jobs']);
    shared.lookup('/featured-jobs', '');
    await rounds(shared, calls, 2);
    // A redeploy whose file of one variant does not come yet.
    jobs.text = 'jobs v2';
    jobs.failing = new Set(['?function=sales']);
    await rounds(shared, calls, 2);
    expect(readyHtml(shared.lookup, '/featured-jobs', '?function=sales')).toBe('jobs v1 ?function=sales');
    expect(readyHtml(shared.lookup, '/featured-jobs', '?function=marketing')).toBe('jobs v2 ?function=marketing');
    const composed = calls.length;
    await rounds(shared, calls, 2);
    expect(new Set(calls.slice(composed))).toEqual(new Set(['/featured-jobs', '/featured-jobs?function=sales']));
    jobs.failing.clear();
    await rounds(shared, calls, 2);
    expect(readyHtml(shared.lookup, '/featured-jobs', '?function=sales')).toBe('jobs v2 ?function=sales');
  });

  it('never holds ready a document that missed its HTML: with no good one yet, each request composes', async () => {
    const { shared, calls, pages } = setUp();
    /** @type {{ cache: FragmentCache }} */ (pages['/employers']).cache = 'timeout';
    shared.lookup('/employers', '');
    await rounds(shared, calls, 2);
    expect(shared.lookup('/employers', '')).toEqual({ reason: 'not-ready' });
  });

  it('sends nothing composed from another version of what its headers come from (remotes.json)', async () => {
    let remotes = { jobs: 'http://a/mf-manifest.json' };
    const { shared, calls } = setUp({ version: () => remotes });
    shared.lookup('/employers', '');
    await rounds(shared, calls);
    expect(readyHtml(shared.lookup, '/employers', '')).toBe('employers v1 ');
    // Its CSP now allows another origin than the document's links: composed on request until a round has it.
    remotes = { jobs: 'http://b/mf-manifest.json' };
    expect(shared.lookup('/employers', '')).toEqual({ reason: 'not-ready' });
    await rounds(shared, calls);
    expect(readyHtml(shared.lookup, '/employers', '')).toBe('employers v1 ');
  });

  it('holds the 404 document ready for every unknown path', async () => {
    const { shared, calls } = setUp();
    shared.lookup(undefined, '?x=1');
    await rounds(shared, calls);
    const found = shared.lookup(undefined, '?anything');
    expect('ready' in found && [found.ready.status, found.ready.route]).toEqual([404, undefined]);
  });

  it('forgets a page nobody asked for in idleMs, and composes nothing once nothing is asked for', async () => {
    let time = 0;
    const { shared, calls } = setUp({ idleMs: 1000, now: () => time });
    shared.lookup('/employers', '');
    await rounds(shared, calls);
    time = 2000;
    await sleep(30);
    const composed = calls.length;
    await sleep(30);
    expect(calls.length).toBe(composed);
    expect(shared.lookup('/employers', '')).toEqual({ reason: 'not-ready' });
  });

  it('keeps what is ready when the template cannot be read, and composes nothing more once closed', async () => {
    const { shared, calls, pages } = setUp();
    shared.lookup('/employers', '');
    await rounds(shared, calls);
    delete pages['/employers'];
    await rounds(shared, calls, 2);
    expect(readyHtml(shared.lookup, '/employers', '')).toBe('employers v1 ');
    shared.close();
    await shared.settled();
    const composed = calls.length;
    await sleep(30);
    expect(calls.length).toBe(composed);
  });

  it('composes pinned pages without being asked, never forgets them, and tells each change once', async () => {
    let time = 0;
    /** @type {Array<[string, string[]]>} */
    const swaps = [];
    const { shared, calls, pages } = setUp({
      idleMs: 1000,
      now: () => time,
      pinned: ['/employers', undefined],
      onSwap: async (label, ready) => {
        swaps.push([label, [...ready.values()].map((document) => document.html)]);
      },
    });
    await rounds(shared, calls, 2);
    expect(swaps).toEqual([
      ['/employers', ['employers v1 ']],
      ['not-found', ['not found ']],
    ]);
    time = 5000;
    /** @type {{ text: string }} */ (pages['/employers']).text = 'employers v2';
    await rounds(shared, calls, 2);
    expect(swaps.slice(2)).toEqual([['/employers', ['employers v2 ']]]);
  });

  it('tells a change again each round until onSwap takes it (a full disk, say)', async () => {
    let failures = 2;
    /** @type {string[]} */
    const taken = [];
    const { shared, calls } = setUp({
      pinned: ['/employers'],
      onSwap: async (_label, ready) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('ENOSPC: no space left on device');
        }
        taken.push(...[...ready.values()].map((document) => document.html));
      },
    });
    await rounds(shared, calls, 4);
    expect(taken).toEqual(['employers v1 ']);
  });

  it("swaps in a changed page's default variant before its others are composed, each variant whole", async () => {
    const composer = fakeComposer();
    /** @type {() => void} */
    let release = () => {};
    let holding = false;
    const held = new Promise((resolve) => {
      release = () => resolve(undefined);
    });
    const shared = createSharedDocuments({
      // The other variants' files come late, once the page changed.
      compose: async (url) => {
        if (holding && url.includes('?')) await held;
        return composer.compose(url);
      },
      intervalMs: 5,
    });
    open.push(shared);
    shared.lookup('/featured-jobs', '');
    await rounds(shared, composer.calls, 2);
    /** @type {{ text: string }} */ (composer.pages['/featured-jobs']).text = 'jobs v2';
    holding = true;
    const deadline = Date.now() + 5000;
    while (readyHtml(shared.lookup, '/featured-jobs', '') !== 'jobs v2 ' && Date.now() < deadline) await sleep(5);
    // The default variant is the new one; the others, not composed yet, are still the old ones, whole.
    expect(readyHtml(shared.lookup, '/featured-jobs', '')).toBe('jobs v2 ');
    expect(readyHtml(shared.lookup, '/featured-jobs', '?function=sales')).toBe('jobs v1 ?function=sales');
    release();
    await shared.settled();
    await rounds(shared, composer.calls);
    expect(readyHtml(shared.lookup, '/featured-jobs', '?function=sales')).toBe('jobs v2 ?function=sales');
  });
});

// Documents for everyone, composed when what they are made of changes instead of once per request, and held ready
// to send in every encoding. A page's document is the same bytes for every visitor until its remote's live build,
// a canary, remotes.json or the shell's template changes. So every `intervalMs`, each page asked for lately has its
// default variant composed again (from the fragment cache's copies, which fetch ahead of their age: a few dozen
// microseconds); only when that changed is it swapped in at once, then its other variants composed (eight at a time)
// and encoded off the event loop, and swapped in together: every document is whole, of one build or the next, and a
// page with many variants shows a change on its default one as soon as a page without any. A request is answered
// from what is ready, without waiting for anything; one the table cannot answer is composed for that request as
// before (the caller's fallback), and the metrics say why:
//   not-ready          the page was not asked for lately, or its remote never gave its HTML since
//   too-many-variants  the page has more query variants than `maxVariants`: each would be composed ahead, asked or not
//   undecidable        the query cannot be read without decoding it (pageVariant.js): the browser renders that page
//
// A document is kept ready only when its page's HTML made it in. A composition that missed it (the remote down, slow
// or refused) keeps the last good document of that variant in service, and the metrics say so; with none yet, the
// request composes, and its Server-Timing says what it waited for, as the release gate needs to read.
//
// Freshness: a change shows once the fragment cache has its new copy (FRAGMENT_MAX_AGE_MS) and the next round has
// composed it (`intervalMs`). A page nobody asks for in `idleMs` is forgotten, so an idle site composes nothing.
const { allVariants, serverVariantKey } = require('@nativegtm/contract/pageVariant');
const { NOT_FOUND_DOCUMENT } = require('@nativegtm/contract/composePaths');
const { missedFragment, serverTiming } = require('./fragmentTiming');
const { encodeAhead } = require('./documentResponse');

/** How often the pages asked for lately are composed again. */
const REFRESH_INTERVAL_MS = 100;
/** How many of a page's other variants are composed at once when it changed. */
const VARIANTS_AT_ONCE = 8;

/** What a route label says of the 404 document (a page route otherwise). */
const NOT_FOUND_LABEL = 'not-found';

/**
 * @typedef {import('./documentComposer').ComposedDocument} ComposedDocument
 * @typedef {import('@nativegtm/contract/pageVariant').PageQuery} PageQuery
 * @typedef {{ status: number, route: string | undefined, html: string,
 *   encoded: import('./documentResponse').Encoded, timing: string | undefined }} ReadyDocument
 * @typedef {'not-ready' | 'too-many-variants' | 'undecidable'} ComposeReason
 */
/**
 * One page's documents: the query its manifest lists (undefined: no manifest, or the 404 document), its ready
 * documents by variant key, whether it has too many variants, the variants whose last good document is in service
 * because the newest composition missed its HTML, and when it was last asked for; unswapped: onSwap has not taken
 * its newest documents yet; told: the documents it took last.
 * basis: the default variant's text and the query it was composed with last round; version: what it was composed
 * from (the option of that name).
 * @typedef {{ query: PageQuery | undefined, ready: Map<string, ReadyDocument>, tooMany: boolean, kept: Set<string>,
 *   usedAt: number, basis?: { html: string, query: PageQuery | undefined }, version?: unknown,
 *   unswapped?: boolean, told?: Map<string, ReadyDocument> }} Page
 */

/**
 * The number of variants a query has, without listing them (a page may declare millions).
 * @param {PageQuery | undefined} query
 */
function variantCount(query) {
  return Object.values(query ?? {}).reduce((count, values) => count * (values.length + 1), 1);
}

/**
 * @param {{ compose: (url: string) => Promise<ComposedDocument>, intervalMs?: number, idleMs?: number,
 *   maxVariants?: number, now?: () => number, version?: () => unknown, pinned?: Array<string | undefined>,
 *   onSwap?: (label: string, ready: ReadonlyMap<string, ReadyDocument>) => Promise<void>,
 *   metrics?: import('./observability/metrics').Metrics,
 *   logger?: import('./observability/logger').Logger }} options
 *   compose: a document for everyone, composed now (documentComposer's render); intervalMs: how often a page asked
 *   for lately is composed again; idleMs: how long a page nobody asks for is kept; maxVariants: the most variants of
 *   one page kept ready; version: what the headers sent with a document are made from (remotes.json's entries, which
 *   its CSP allows): a document composed from another is not sent, so that its body and its headers always agree;
 *   pinned: page routes (undefined: the 404 document) composed from the start and never forgotten, asked for or not
 *   (nginx's collector: nginx sends them, and never asks); onSwap: told a page's documents after each round that
 *   changed any of them, awaited before the next page is composed
 */
function createSharedDocuments({
  compose,
  intervalMs = REFRESH_INTERVAL_MS,
  idleMs = 60_000,
  maxVariants = 64,
  now = Date.now,
  version = () => undefined,
  pinned = [],
  onSwap,
  metrics,
  logger,
}) {
  /** By page route, or NOT_FOUND_LABEL. @type {Map<string, Page>} */
  const pages = new Map();
  const pinnedLabels = new Set(pinned.map((route) => route ?? NOT_FOUND_LABEL));
  for (const label of pinnedLabels) pages.set(label, newPage());
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {Promise<void> | undefined} */
  let round;
  let closed = false;

  /** @returns {Page} */
  function newPage() {
    return { query: undefined, ready: new Map(), tooMany: false, kept: new Set(), usedAt: now() };
  }

  /** @param {string} label */
  const urlOf = (label) => (label === NOT_FOUND_LABEL ? NOT_FOUND_DOCUMENT : label);

  /**
   * @param {ComposedDocument} document
   * @param {ReadyDocument | undefined} last
   * @returns {Promise<ReadyDocument>}
   */
  async function readied(document, last) {
    if (last && last.html === document.html && last.status === document.status) return last;
    return {
      status: document.status,
      route: document.route,
      html: document.html,
      encoded: await encodeAhead(document.html),
      // It is sent after it was composed, so it says that the request waited for nothing.
      timing: document.fragment && serverTiming(document.fragment, true),
    };
  }

  /**
   * Composes one page again, and swaps in its variants that changed. Its default variant is composed first: it
   * names the page's query, and when it and its query are the same as last round's, no other variant can have
   * changed (a build's files never change, and everything else, from the template to the canaries and the store's
   * word on the manifest, shows in every variant alike), so only those not ready yet are composed.
   * @param {string} label
   * @param {Page} page
   */
  async function refreshPage(label, page) {
    const composedFrom = version();
    const base = await compose(urlOf(label));
    if (base.fragment && missedFragment(base.fragment)) {
      // Without its remote's manifest, not even the page's variants are known: everything ready stays in service.
      page.kept = new Set(page.ready.keys());
      return;
    }
    const query = label === NOT_FOUND_LABEL ? undefined : base.query;
    page.tooMany = variantCount(query) > maxVariants;
    if (page.tooMany) {
      page.ready = new Map();
      page.kept = new Set();
      return;
    }
    const unchanged = page.basis?.html === base.html && page.basis.query === query;
    /** @type {Map<string, ReadyDocument>} */
    const next = new Map();
    /** @type {Set<string>} */
    const kept = new Set();
    /** @param {{ key: string, search: string }} variant */
    const settle = async ({ key, search }) => {
      const last = page.ready.get(key);
      if (unchanged && last && !page.kept.has(key)) {
        next.set(key, last);
        return;
      }
      const document = search === '' ? base : await compose(`${urlOf(label)}${search}`);
      if (document.fragment && missedFragment(document.fragment)) {
        // The last good one, until a round composes it whole (it may be of the build before).
        if (last) {
          next.set(key, last);
          kept.add(key);
        }
        return;
      }
      next.set(key, await readied(document, last));
    };
    const [first, ...others] = allVariants(query);
    await settle(/** @type {{ key: string, search: string }} */ (first));
    const firstReady = next.get(/** @type {{ key: string }} */ (first).key);
    if (!unchanged && firstReady && page.version === composedFrom && page.query === query) {
      // The default variant at once, what most requests ask for: a page with many variants (Featured Jobs' 60 files
      // to fetch and encode) would otherwise show a change only once all are done.
      page.ready = new Map(page.ready).set(/** @type {{ key: string }} */ (first).key, firstReady);
      await swapped(label, page);
    }
    // The others a few at once: their files are fetched from the remote, and encoded off the event loop.
    for (let at = 0; at < others.length; at += VARIANTS_AT_ONCE) {
      await Promise.all(others.slice(at, at + VARIANTS_AT_ONCE).map(settle));
    }
    // Each document is whole; a page's variants move to the new ones together, its default variant first.
    page.query = query;
    page.ready = new Map(
      allVariants(query).flatMap(({ key }) =>
        next.has(key) ? [[key, /** @type {ReadyDocument} */ (next.get(key))]] : [],
      ),
    );
    page.basis = { html: base.html, query };
    page.kept = kept;
    page.version = composedFrom;
  }

  /**
   * Tells onSwap a page's documents; told again next round until it took them (a full disk, say).
   * @param {string} label
   * @param {Page} page
   */
  async function swapped(label, page) {
    if (!onSwap) return;
    const told = page.ready;
    page.unswapped = true;
    await onSwap(label, told);
    page.unswapped = false;
    page.told = told;
  }

  /**
   * Whether a round changed a page's documents: one composed anew, or one gone.
   * @param {Map<string, ReadyDocument>} before
   * @param {Map<string, ReadyDocument>} after
   */
  function changed(before, after) {
    if (before.size !== after.size) return true;
    for (const [key, document] of after) if (before.get(key) !== document) return true;
    return false;
  }

  /** One round: every page asked for lately composed again, one after the other. */
  async function refresh() {
    for (const [label, page] of pages) {
      if (closed) return;
      if (!pinnedLabels.has(label) && now() - page.usedAt > idleMs) {
        pages.delete(label);
        metrics?.sharedDocuments(label, 0, false);
        continue;
      }
      try {
        await refreshPage(label, page);
        if (page.unswapped || changed(page.told ?? new Map(), page.ready)) await swapped(label, page);
      } catch (error) {
        // The shell's template gone, say: the last good documents stay in service, and requests compose (and fail)
        // as they would have.
        page.kept = new Set(page.ready.keys());
        logger?.warn(
          { route: label, err: error },
          'shared documents could not be composed or handed on: the last ones are kept',
        );
      }
      metrics?.sharedDocuments(label, page.ready.size, page.kept.size > 0);
    }
  }

  function schedule() {
    if (timer || round || closed || pages.size === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      round = refresh().finally(() => {
        round = undefined;
        schedule();
      });
    }, intervalMs);
    timer.unref?.();
  }

  schedule();

  return {
    /**
     * The document ready for a request, or why there is none (the caller composes it for the request).
     * @param {string | undefined} route the page route the request is for (undefined: the 404 document)
     * @param {string} search the raw query, with its "?" (or empty)
     * @returns {{ ready: ReadyDocument } | { reason: ComposeReason }}
     */
    lookup(route, search) {
      const label = route ?? NOT_FOUND_LABEL;
      let page = pages.get(label);
      if (!page) {
        page = newPage();
        pages.set(label, page);
        schedule();
      }
      page.usedAt = now();
      if (page.tooMany) return { reason: 'too-many-variants' };
      const key = route === undefined ? 'index' : serverVariantKey(page.query, search);
      if (key === null) return { reason: 'undecidable' };
      const ready = page.version === version() ? page.ready.get(key) : undefined;
      return ready ? { ready } : { reason: 'not-ready' };
    },
    /** Waits for the round under way, if any (tests). */
    settled: () => round ?? Promise.resolve(),
    /** Stops composing; the documents ready stay readable. */
    close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

module.exports = { createSharedDocuments, NOT_FOUND_LABEL, REFRESH_INTERVAL_MS };

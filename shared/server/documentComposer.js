// The shell's document server: every page route answers a complete document, composed from the shell's index.html (an
// SSI template, see ssi.js) and the HTML each page's remote rendered at build time (fragments.js): for everyone, once
// per change (sharedDocuments.js calls render), and per request for a personal one or what that table cannot answer.
// Unknown paths answer 404 with the shell's own 404 screen. A remote that is down, answers an error or is slow only
// loses its HTML: the document still answers within the fragment timeout and boots that page in the browser. So does
// a release in the store whose HTML is not the bytes its record names (vouchedFragments).
const { createHash } = require('node:crypto');
const path = require('node:path');
const { LRUCache } = require('lru-cache');
const { parseTemplate, compose } = require('./ssi');
const {
  bodyWrapperStart,
  fragmentPaths,
  headMarker,
  HEAD_MARKER_START,
  parsePageManifest,
  REMOTE_BASE_VARIABLE,
} = require('@nativegtm/contract/fragments');
const { serverVariantKey } = require('@nativegtm/contract/pageVariant');
const { createFragmentCache } = require('./fragmentCache');
const { createFragmentTimer } = require('./fragmentTiming');
const { fileReader } = require('@nativegtm/store/fileReader');
const { siteHead, robotsTxt, sitemapXml } = require('./siteMeta');
const { requestTarget } = require('./requestTarget');
const { normalizeRoutePath } = require('@nativegtm/contract/routes');
const { composeParts, NOT_FOUND_SCREEN, parseComposePath } = require('@nativegtm/contract/composePaths');
const { releaseFolder } = require('@nativegtm/contract/releases');
const { canariesContent } = require('@nativegtm/contract/canaryBuckets');
const { INTEGRITY_ALGORITHM, fragmentIntegrityOf } = require('@nativegtm/contract/integrity');

const NOT_FOUND = NOT_FOUND_SCREEN;

/** @typedef {import('@nativegtm/contract/fragments').PageManifest} PageManifest */
/**
 * A release served in place of a remote's live one: a preview's, or a running canary's to its visitors (releases/).
 * @typedef {{ remote: string, id: string }} ChosenRelease
 */
/**
 * fragments: the integrity of each server-rendered file the manifest's build wrote, when the manifest is vouched for
 * by the store (undefined: nothing is checked, a dist/ remote's).
 * @typedef {{ base: URL, manifest: PageManifest, fragments: Record<string, string> | undefined }} LiveManifest
 */
/** @typedef {import('./releases/vouchedRemotes').VouchedFragments} VouchedFragments */
/**
 * @typedef {{ status: number, html: string, route: string | undefined,
 *   fragment: import('./fragmentTiming').FragmentTiming | undefined,
 *   query: import('@nativegtm/contract/pageVariant').PageQuery | undefined }} ComposedDocument
 *   route: the page route the document is for, none for the 404 document; fragment: what it waited for from its
 *   page's remote; query: the page's query parameters, as the manifest its HTML came from lists them (none without a
 *   manifest)
 */
/**
 * One document's view of its page's remote: the deadline of its fetches, the manifest, read once per document, and
 * the timer of its fetches (fragmentTiming.js).
 * @typedef {{ deadline: number, manifest: () => Promise<LiveManifest | undefined>,
 *   timer: ReturnType<typeof createFragmentTimer> }} Live
 */

/**
 * The URL a remote's server-rendered file is fetched at: with its build id when its manifest named it (the URL then
 * means one build's file).
 * @param {URL} base
 * @param {string} file
 * @param {string} [buildId]
 */
function fragmentUrl(base, file, buildId) {
  const url = new URL(file, base);
  if (buildId !== undefined) url.searchParams.set('build', buildId);
  return url;
}

/**
 * @param {{ root: string, remotes: import('./remotesFile').RemotesFile, routes: { route: string, remote: string }[], origin: string,
 *   fragmentTimeoutMs?: number, fragmentMaxAgeMs?: number, sampleRate?: number,
 *   canaries?: () => { remote: string, share: number }[],
 *   vouchedFragments?: (remote: string, chosen?: string) => VouchedFragments | undefined,
 *   events?: import('./fragmentCache').CacheEvents,
 *   metrics?: import('./observability/metrics').Metrics }} options
 *   root: the shell's dist/; remotes: remotes.json's reader; routes: which remote renders which page; origin: the site's public origin, for
 *   absolute URLs (never taken from the request); sampleRate: the share of page views measured (RUM_SAMPLE_RATE);
 *   canaries: the running canaries' shares, listed in every document for browsers to place themselves (releases/canaries.js); vouchedFragments: which
 *   of a remote's ssr/manifest.json this server may take, for the live release or a chosen one (none: any); events:
 *   told of each fragment fetch, cache hit and file refused for its bytes, by remote;
 *   metrics: where the live build of each remote is shown.
 */
function createDocumentComposer({
  root,
  remotes,
  routes,
  origin,
  fragmentTimeoutMs = 400,
  fragmentMaxAgeMs = 500,
  sampleRate = 1,
  canaries,
  vouchedFragments = () => undefined,
  events,
  metrics,
}) {
  const template = fileReader(parseTemplate);
  const text = fileReader((value) => value);
  const fragments = createFragmentCache({ timeoutMs: fragmentTimeoutMs, maxAgeMs: fragmentMaxAgeMs, events });
  const byPath = new Map(routes.map((route) => [route.route, route]));

  /**
   * The remote's base URL (the folder of its mf-manifest.json), if remotes.json lists a valid one; for a chosen
   * release, that release's folder on the remote's server.
   * @param {string} remote
   * @param {ChosenRelease | undefined} chosen
   */
  function remoteBase(remote, chosen) {
    const manifest = remotes.entries()?.[remote];
    if (!manifest) return undefined;
    const base = new URL('./', manifest);
    return chosen ? new URL(releaseFolder(chosen.id), base) : base;
  }

  /**
   * A file of the remote's ssr/ folder, only ever from the remote's own origin. Head and body are asked for with the
   * build id of the manifest that named them: the URL then means one build's file, which the cache keeps as long as
   * it is used, and a redeploy (a new build id) is fetched in full.
   * @param {string} remote
   * @param {URL} base
   * @param {string} file
   * @param {Live} live
   * @param {string} [buildId]
   * @param {(text: string) => boolean} [accept]
   * @returns {Promise<string | null>}
   */
  function fetchFragment(remote, base, file, { deadline, timer }, buildId, accept) {
    const url = fragmentUrl(base, file, buildId);
    if (url.origin !== base.origin) return Promise.resolve(null);
    return timer.time((answered) =>
      fragments.get(url.href, deadline - Date.now(), {
        immutable: buildId !== undefined,
        accept,
        label: remote,
        answered,
      }),
    );
  }

  /**
   * Each remote's last manifest text and what it says, so a manifest is parsed and checked once, not per document;
   * its integrity once asked for.
   * @type {Map<string, { text: string, manifest: PageManifest | undefined, integrity?: string }>}
   */
  const manifests = new Map();
  /** The same for chosen releases, apart, by remote and release: they are not what is live. */
  /** @type {LRUCache<string, { text: string, manifest: PageManifest | undefined, integrity?: string }>} */
  const chosenManifests = new LRUCache({ max: 256 });
  /**
   * Server-rendered files checked against the integrity their vouched manifest names, by URL and that integrity: the
   * copy checked, whether it matched, and when a copy that did not was last forgotten. The same copy is hashed once,
   * not per document.
   * @type {LRUCache<string, { text: string, ok: boolean, droppedAt?: number }>}
   */
  const checked = new LRUCache({ max: 1024 });

  /** @param {string} text */
  const integrityOf = (text) =>
    `${INTEGRITY_ALGORITHM}-${createHash(INTEGRITY_ALGORITHM).update(text).digest('base64')}`;

  /**
   * Whether a server-rendered file is the bytes its vouched manifest names; one that is not is reported.
   * @param {string} remote
   * @param {URL} base
   * @param {string} file
   * @param {string} buildId the build its manifest names (the file's URL carries it)
   * @param {string} text
   * @param {Record<string, string>} listed the integrity of each of the build's server-rendered files
   */
  function vouchedText(remote, base, file, buildId, text, listed) {
    const url = fragmentUrl(base, file, buildId).href;
    const expected = listed[file] ?? '';
    const key = `${url} ${expected}`;
    let last = checked.get(key);
    if (last?.text !== text) {
      last = { text, ok: expected !== '' && integrityOf(text) === expected };
      checked.set(key, last);
    }
    if (last.ok) return true;
    events?.refused?.({ url, label: remote });
    // The copy is kept as the build's file for as long as it is asked for: forgotten (at most once per max age), so
    // that a copy mended where it is served (a node's store synced again) is pasted again.
    const now = Date.now();
    if (last.droppedAt === undefined || now - last.droppedAt > fragmentMaxAgeMs) {
      last.droppedAt = now;
      fragments.drop(url, text);
    }
    return false;
  }

  /**
   * The manifest's text and contents, if it is this remote's and well-formed: a build id, and query parameters and
   * values that are slugs (they become regular expressions and file names); otherwise no manifest.
   * @param {string} remote
   * @param {string} manifestText
   * @param {string | undefined} chosen the id of the release chosen for the request, if one is
   * @returns {{ text: string, manifest: PageManifest | undefined, integrity?: string }}
   */
  function parsedManifest(remote, manifestText, chosen) {
    const known = chosen === undefined ? manifests : chosenManifests;
    const key = chosen === undefined ? remote : `${remote}/${chosen}`;
    const last = known.get(key);
    if (last?.text === manifestText) return last;
    let manifest;
    try {
      manifest = parsePageManifest(manifestText, remote);
    } catch {
      // Not this remote's well-formed manifest: no page HTML, as for a remote that is down.
    }
    /** @type {{ text: string, manifest: PageManifest | undefined, integrity?: string }} */
    const parsed = { text: manifestText, manifest };
    known.set(key, parsed);
    if (manifest && chosen === undefined) metrics?.liveBuild(remote, manifest.buildId);
    return parsed;
  }

  /**
   * The integrity of each server-rendered file the manifest names, if the store vouches for the manifest (its
   * integrity is one `vouched` names and its list is well-formed), or null (none of its HTML is pasted, and the
   * refusal is reported).
   * @param {string} remote
   * @param {URL} base
   * @param {{ text: string, manifest: PageManifest | undefined, integrity?: string }} parsed
   * @param {VouchedFragments} vouched
   * @returns {Record<string, string> | null}
   */
  function vouchedManifest(remote, base, parsed, vouched) {
    parsed.integrity ??= integrityOf(parsed.text);
    const matched = vouched.manifests.some(({ integrity }) => integrity === parsed.integrity);
    let fragments = null;
    if (matched && parsed.manifest) {
      try {
        fragments = fragmentIntegrityOf(parsed.manifest);
      } catch {
        // A manifest the store recorded has a well-formed list (publish checked it): one without, vouches for nothing.
      }
    }
    if (!fragments) events?.refused?.({ url: new URL(fragmentPaths.manifest, base).href, label: remote });
    return fragments;
  }

  /**
   * The remote's base URL and its ssr/manifest.json (live build id, query parameters), if it is this remote's.
   * @param {string} remote
   * @param {Live} live
   * @param {ChosenRelease | undefined} chosen
   * @returns {Promise<LiveManifest | undefined>}
   */
  async function pageManifest(remote, live, chosen) {
    const base = remoteBase(remote, chosen);
    if (!base) return undefined;
    const manifestText = await fetchFragment(remote, base, fragmentPaths.manifest, live);
    if (manifestText === null) return undefined;
    const parsed = parsedManifest(remote, manifestText, chosen?.id);
    if (!parsed.manifest) return undefined;
    // Asked once the manifest is here: a promote while it was fetched is the store's newest word.
    const vouched = vouchedFragments(remote, chosen?.id);
    if (!vouched) return { base, manifest: parsed.manifest, fragments: undefined };
    const fragments = vouchedManifest(remote, base, parsed, vouched);
    return fragments ? { base, manifest: parsed.manifest, fragments } : undefined;
  }

  /**
   * @param {string} remote
   * @param {Live} live
   */
  async function pageHead(remote, live) {
    if (remote === NOT_FOUND) return text(path.join(root, fragmentPaths.head)) ?? '';
    const found = await live.manifest();
    if (!found) return '';
    const { base, manifest } = found;
    // Only the head of the build the manifest names: another's links stylesheets that build's deploy may delete. (A
    // head without a marker comes from a remote built before heads had one: accepted, so deploying this server
    // first does not take those pages' titles away until their next build.)
    const marker = headMarker(remote, manifest.buildId);
    const head = await fetchFragment(
      remote,
      base,
      fragmentPaths.head,
      live,
      manifest.buildId,
      (head) => head.startsWith(marker) || !head.startsWith(HEAD_MARKER_START),
    );
    if (!head) return '';
    if (found.fragments && !vouchedText(remote, base, fragmentPaths.head, manifest.buildId, head, found.fragments)) {
      return '';
    }
    // The page's stylesheets are files of the remote: its base URL is only known here.
    return compose(parseTemplate(head), { [REMOTE_BASE_VARIABLE]: base.href });
  }

  /**
   * @param {string} remote
   * @param {string} search the raw query, with its "?"
   * @param {Live} live
   */
  async function pageBody(remote, search, live) {
    if (remote === NOT_FOUND) return text(path.join(root, fragmentPaths.body('index'))) ?? '';
    const found = await live.manifest();
    if (!found) return '';
    const { base, manifest } = found;
    // The raw query, read by nginx's rules (a query only decoding could read gets no HTML: the browser renders it).
    const key = serverVariantKey(manifest.query, search);
    if (key === null) return '';
    // Only HTML the remote's build wrote for this remote and the build its manifest names is pasted in: never an
    // error page answered with 200, nor a file of another build than the manifest's (the browser would otherwise
    // get HTML that the JavaScript the shell loads for that build does not hydrate).
    const wrapper = bodyWrapperStart(remote, manifest.buildId);
    const file = fragmentPaths.body(key);
    const body = await fetchFragment(remote, base, file, live, manifest.buildId, (html) => html.startsWith(wrapper));
    if (!body) return '';
    if (found.fragments && !vouchedText(remote, base, file, manifest.buildId, body, found.fragments)) return '';
    return body;
  }

  /**
   * A document composed now. Every request that has no ready copy (sharedDocuments.js) comes here: a personal one, or
   * one for everyone the table cannot answer.
   * @param {string} url the request's path and query
   * @param {ChosenRelease[]} [chosen] releases served in place of live ones (only the page's remote's matters)
   * @param {string} [inBrowser] a remote whose page is rendered in the browser only: its files are not fetched at
   *   all (an override's, served from a dev server the server must never request: releases/overrides.js)
   * @returns {Promise<ComposedDocument>}
   */
  async function render(url, chosen = [], inBrowser = undefined) {
    const { pathname, search } = requestTarget(url);
    const route = byPath.get(normalizeRoutePath(pathname));
    const page = route ? route.remote : NOT_FOUND;
    const parsed = template(path.join(root, 'index.html'));
    if (!parsed) throw new Error(`The shell's index.html is missing in ${root}`);
    const deadline = Date.now() + fragmentTimeoutMs;
    // Head and body both need the page's manifest: read once per document.
    /** @type {Promise<LiveManifest | undefined> | undefined} */
    let manifestOnce;
    /** @type {Live} */
    const live = {
      deadline,
      manifest: () =>
        (manifestOnce ??= pageManifest(
          page,
          live,
          chosen.find((release) => release.remote === page),
        )),
      timer: createFragmentTimer(page),
    };
    const html = await compose(parsed, { page, args: search.slice(1) }, async (virtual) => {
      const include = parseComposePath(virtual);
      if (include?.screen !== page) return '';
      if (include.part === composeParts.siteHead) {
        return siteHead(origin, route?.route, { sampleRate, canaries: canaries && canariesContent(canaries()) });
      }
      if (page === inBrowser) return '';
      if (include.part === composeParts.pageHead) return pageHead(page, live);
      return pageBody(page, search, live);
    });
    return {
      status: route ? 200 : 404,
      html,
      route: route?.route,
      fragment: live.timer.result(),
      query: (await manifestOnce)?.manifest.query,
    };
  }

  return {
    render,
    /**
     * The page route a request path is for, or undefined (the 404 document's).
     * @param {string} pathname
     */
    routeOf: (/** @type {string} */ pathname) => byPath.get(normalizeRoutePath(pathname))?.route,
    close: fragments.close,
    robotsTxt: () => robotsTxt(origin),
    sitemapXml: () =>
      sitemapXml(
        origin,
        routes.map((route) => route.route),
      ),
  };
}

module.exports = { createDocumentComposer };

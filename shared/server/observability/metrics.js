// What the servers count, in the Prometheus text format (prom-client). One registry per process, never the library's
// global one, so several sites in one process (the tests) do not add into each other. Labels are bounded: a route
// label is a page route or one of a few fixed names, never the requested path.
const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = require('prom-client');

/** Seconds; fragments come from loopback or a nearby node, so the low buckets carry the detail. */
const FRAGMENT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
const DOCUMENT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/**
 * Seconds of LCP, INP, FCP and TTFB in visitors' browsers: web.dev's good and poor thresholds of each are bucket
 * bounds (0.2, 0.5; 0.8, 1.8; 1.8, 3; 2.5, 4), so the share of good and poor views is exact from the buckets.
 */
const VITAL_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.8, 2.5, 3, 4, 6, 10, 20];
/** CLS scores, with its thresholds (0.1, 0.25) as bounds. */
const LAYOUT_SHIFT_BUCKETS = [0.01, 0.05, 0.1, 0.15, 0.25, 0.5, 1];

/**
 * @typedef {'timeout' | 'unreachable' | 'status' | 'rejected' | 'unvouched'} FragmentFailure
 *   timeout: no answer within the fragment timeout; unreachable: refused, reset or not resolvable; status: an answer
 *   other than 200; rejected: a 200 that is not the file asked for (another build's, an error page); unvouched: a
 *   release's file whose bytes are not the ones the store recorded, left out of a document (counted per document)
 */

/** Files visitors' browsers refused for their integrity (the status page reads it back: integrityFailures.js). */
const INTEGRITY_FAILURES_METRIC = 'nativegtm_integrity_failures_total';

function createMetrics() {
  const registry = new Registry();
  // Memory, CPU, event-loop delay, handles: what an operator checks first on a slow node.
  collectDefaultMetrics({ register: registry, prefix: 'nativegtm_' });
  const registers = [registry];

  const requests = new Counter({
    name: 'nativegtm_http_requests_total',
    help: 'Requests answered, by deployable, route (a page route or a fixed name such as "asset") and status.',
    labelNames: /** @type {const} */ (['server', 'route', 'status']),
    registers,
  });
  const documentSeconds = new Histogram({
    name: 'nativegtm_document_duration_seconds',
    help: 'Time to compose a document, from request to the composed HTML, by route.',
    labelNames: /** @type {const} */ (['route']),
    buckets: DOCUMENT_BUCKETS,
    registers,
  });
  const composedOnRequest = new Counter({
    name: 'nativegtm_documents_composed_on_request_total',
    help: 'Documents for everyone composed for their request instead of sent ready, by route and reason (not-ready, too-many-variants, undecidable).',
    labelNames: /** @type {const} */ (['route', 'reason']),
    registers,
  });
  const sharedReady = new Gauge({
    name: 'nativegtm_shared_documents',
    help: "Documents for everyone held ready to send, by route (a page's variants).",
    labelNames: /** @type {const} */ (['route']),
    // Every worker holds its own: summed over a cluster's, it would read N times the documents a site has.
    aggregator: 'max',
    registers,
  });
  const sharedKept = new Gauge({
    name: 'nativegtm_shared_documents_kept',
    help: "1 while a route's last good documents stay in service because their newest composition missed its page's HTML (its remote failing).",
    labelNames: /** @type {const} */ (['route']),
    aggregator: 'max',
    registers,
  });
  const fragmentSeconds = new Histogram({
    name: 'nativegtm_fragment_fetch_duration_seconds',
    help: "Time of one fetch of a page's server-rendered file from its remote, by remote and outcome.",
    labelNames: /** @type {const} */ (['remote', 'outcome']),
    buckets: FRAGMENT_BUCKETS,
    registers,
  });
  const fragmentTimeouts = new Counter({
    name: 'nativegtm_fragment_timeouts_total',
    help: 'Fragment fetches that got no answer within the fragment timeout, by remote.',
    labelNames: /** @type {const} */ (['remote']),
    registers,
  });
  const fragmentFailures = new Counter({
    name: 'nativegtm_fragment_failures_total',
    help: 'Fragment fetches that failed, by remote and reason (timeout, unreachable, status, rejected), and documents that left out a fragment not vouched for by the store (unvouched).',
    labelNames: /** @type {const} */ (['remote', 'reason']),
    registers,
  });
  const fragmentCacheHits = new Counter({
    name: 'nativegtm_fragment_cache_hits_total',
    help: 'Fragments a document got from the cache, without a fetch, by remote.',
    labelNames: /** @type {const} */ (['remote']),
    registers,
  });
  const remoteBuild = new Gauge({
    name: 'nativegtm_remote_build_info',
    help: 'The build of each remote whose manifest the document server read last (1 for that build).',
    labelNames: /** @type {const} */ (['remote', 'build']),
    // Summed over the workers of a cluster, it would read N: every worker that saw the build says 1.
    aggregator: 'max',
    registers,
  });
  const reports = new Counter({
    name: 'nativegtm_browser_reports_total',
    help: 'Reports from browsers, by type (csp-violation, remote-failure, integrity-failure) and whether they were accepted.',
    labelNames: /** @type {const} */ (['type', 'outcome']),
    registers,
  });
  const integrityFailures = new Counter({
    name: INTEGRITY_FAILURES_METRIC,
    help: "Files of a remote that visitors' browsers refused because their bytes were not the ones its build listed, by remote and release.",
    labelNames: /** @type {const} */ (['remote', 'release']),
    registers,
  });

  // Field data: labels are bounded by the endpoint (fieldLabels.js): known routes, remotes and releases, or "other".
  const vitalSeconds = new Histogram({
    name: 'nativegtm_web_vital_seconds',
    help: "LCP, INP, FCP and TTFB in visitors' browsers, by metric, route, the page's remote and release, and device.",
    labelNames: /** @type {const} */ (['metric', 'route', 'remote', 'release', 'device']),
    buckets: VITAL_BUCKETS,
    registers,
  });
  const layoutShift = new Histogram({
    name: 'nativegtm_web_vital_cls',
    help: "CLS (a score, no unit) in visitors' browsers, by route, the page's remote and release, and device.",
    labelNames: /** @type {const} */ (['route', 'remote', 'release', 'device']),
    buckets: LAYOUT_SHIFT_BUCKETS,
    registers,
  });
  const pageViews = new Counter({
    name: 'nativegtm_page_views_total',
    help: 'Pages shown to visitors (a document load or an in-app navigation), as their browsers reported them.',
    labelNames: /** @type {const} */ (['route', 'remote', 'release', 'device', 'nav']),
    registers,
  });
  const browserErrors = new Counter({
    name: 'nativegtm_browser_errors_total',
    help: "Errors in visitors' browsers, by the remote whose files threw (or shell), its release, and source.",
    labelNames: /** @type {const} */ (['remote', 'release', 'source']),
    registers,
  });
  const beacons = new Counter({
    name: 'nativegtm_field_data_beacons_total',
    help: 'Field-data beacons received, by outcome (accepted, signed, malformed, oversized, limited, limited-signed, over-budget, override).',
    labelNames: /** @type {const} */ (['outcome']),
    registers,
  });

  const fieldRecords = new Counter({
    name: 'nativegtm_field_data_records_total',
    help: 'Field-data records sent to the database (written), or lost because its buffer was full while the database could not take them (dropped).',
    labelNames: /** @type {const} */ (['outcome']),
    registers,
  });
  /** @type {(() => number) | undefined} */
  let bufferedRecords;
  new Gauge({
    name: 'nativegtm_field_data_buffered_records',
    help: 'Field-data records waiting in the process for the database (absent on a folder store).',
    registers,
    collect() {
      const count = bufferedRecords?.();
      if (count !== undefined) this.set(count);
    },
  });

  /** @type {(() => import('../releases/storeCopy').StoreCopy) | undefined} */
  let storeCopy;
  new Gauge({
    name: 'nativegtm_store_revision',
    help: "The revision of the store on PostgreSQL the node's copy holds (absent on a folder store).",
    aggregator: 'max',
    registers,
    collect() {
      const copy = storeCopy?.();
      if (copy?.revision !== undefined) this.set(Number(copy.revision));
    },
  });
  new Gauge({
    name: 'nativegtm_store_sync_age_seconds',
    help: "How long ago the node's copy of the store last agreed with the database.",
    aggregator: 'max',
    registers,
    collect() {
      const copy = storeCopy?.();
      if (copy?.ageSeconds !== undefined) this.set(copy.ageSeconds);
    },
  });
  new Gauge({
    name: 'nativegtm_store_stale',
    help: '1 while the node serves a copy of the store it could not check with the database (it stays ready).',
    aggregator: 'max',
    registers,
    collect() {
      const copy = storeCopy?.();
      if (copy) this.set(copy.stale ? 1 : 0);
    },
  });

  /** @type {Map<string, string>} */
  const liveBuilds = new Map();

  return {
    registry,
    /**
     * Reports the node's copy of the store on PostgreSQL (releases/storeCopy.js).
     * @param {() => import('../releases/storeCopy').StoreCopy} read
     */
    watchStoreCopy(read) {
      storeCopy = read;
    },
    /**
     * @param {string} server
     * @param {string} route
     * @param {number} status
     */
    request(server, route, status) {
      requests.inc({ server, route, status: String(status) });
    },
    /**
     * @param {string} route
     * @param {number} seconds
     */
    document(route, seconds) {
      documentSeconds.observe({ route }, seconds);
    },
    /**
     * @param {string} route a page route or "not-found"
     * @param {import('../sharedDocuments').ComposeReason} reason
     */
    composedOnRequest(route, reason) {
      composedOnRequest.inc({ route, reason });
    },
    /**
     * @param {string} route a page route or "not-found"
     * @param {number} ready documents held ready
     * @param {boolean} kept the last good ones, in service while the newest composition misses its HTML
     */
    sharedDocuments(route, ready, kept) {
      sharedReady.set({ route }, ready);
      sharedKept.set({ route }, kept ? 1 : 0);
    },
    /**
     * @param {string} remote
     * @param {number} seconds
     * @param {'ok' | FragmentFailure} outcome
     */
    fragmentFetched(remote, seconds, outcome) {
      fragmentSeconds.observe({ remote, outcome }, seconds);
      if (outcome === 'ok') return;
      fragmentFailures.inc({ remote, reason: outcome });
      if (outcome === 'timeout') fragmentTimeouts.inc({ remote });
    },
    /** @param {string} remote */
    fragmentRefused(remote) {
      fragmentFailures.inc({ remote, reason: 'unvouched' });
    },
    /** @param {string} remote */
    fragmentCacheHit(remote) {
      fragmentCacheHits.inc({ remote });
    },
    /**
     * @param {string} remote
     * @param {string} build
     */
    liveBuild(remote, build) {
      const previous = liveBuilds.get(remote);
      if (previous === build) return;
      if (previous !== undefined) remoteBuild.remove({ remote, build: previous });
      remoteBuild.set({ remote, build }, 1);
      liveBuilds.set(remote, build);
    },
    /**
     * @param {string} type
     * @param {'accepted' | 'rejected'} outcome
     */
    report(type, outcome) {
      reports.inc({ type, outcome });
    },
    /**
     * @param {string} remote a known remote, or "other"
     * @param {string} release a known release or live build of it, or "other"
     */
    integrityFailure(remote, release) {
      integrityFailures.inc({ remote, release });
    },
    /**
     * @param {{ route: string, remote: string, release: string, device: string }} labels
     * @param {import('@nativegtm/contract/fieldData').VitalName} name
     * @param {number} value milliseconds, or CLS's score
     */
    webVital(labels, name, value) {
      if (name === 'CLS') layoutShift.observe(labels, value);
      else vitalSeconds.observe({ metric: name, ...labels }, value / 1000);
    },
    /** @param {{ route: string, remote: string, release: string, device: string, nav: string }} labels */
    pageView(labels) {
      pageViews.inc(labels);
    },
    /** @param {{ remote: string, release: string, source: string }} labels */
    browserError(labels) {
      browserErrors.inc(labels);
    },
    /**
     * @param {'accepted' | 'signed' | 'malformed' | 'oversized' | 'limited' | 'limited-signed' | 'over-budget' | 'override'} outcome
     */
    beacon(outcome) {
      beacons.inc({ outcome });
    },
    /**
     * @param {'written' | 'dropped'} outcome
     * @param {number} count
     */
    fieldRecords(outcome, count) {
      fieldRecords.inc({ outcome }, count);
    },
    /**
     * Reports how many field-data records wait for the database (fieldData/postgresRecords.js).
     * @param {() => number} read
     */
    watchBufferedRecords(read) {
      bufferedRecords = read;
    },
  };
}

/** @typedef {ReturnType<typeof createMetrics>} Metrics */

module.exports = { createMetrics, INTEGRITY_FAILURES_METRIC };

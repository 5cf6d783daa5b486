// One visit of one route in a fresh browser context (empty cache): what the page downloads, how many requests, how
// deep the request chain before the largest paint is, when it paints, and whether anything moves.
const fs = require('node:fs');
const path = require('node:path');
const { FIELD_DATA_CHUNK } = require('@nativegtm/contract/fieldData');

/** The collector's chunk file: `/field-data.<hash>.js`. */
const FIELD_DATA_FILE = new RegExp(`/${FIELD_DATA_CHUNK}\\.[0-9a-f]{10}\\.js$`);

/**
 * What observePaints records in the page, as window.__bench: milliseconds since navigation, null until painted.
 * @typedef {{ fcp: number | null, lcp: number | null, lcpElement: string | null, cls: number }} PaintRecord
 */
/** @typedef {typeof window & { __bench: PaintRecord }} BenchWindow  the page's window, once observePaints ran */
/**
 * A layout-shift entry (Layout Instability API, not in TypeScript's DOM types).
 * @typedef {PerformanceEntry & { value: number, hadRecentInput: boolean }} LayoutShift
 */

/**
 * One request of a visit, from the DevTools protocol's network events; times in milliseconds since its first request.
 * @typedef {object} LoggedRequest
 * @property {string} url
 * @property {number} start
 * @property {string} initiatorType  'parser', 'script', …
 * @property {string | undefined} initiatorUrl
 * @property {string} [kind]  js, css, json, html, or the file's extension
 * @property {string} [encoding]  its Content-Encoding
 * @property {number} [contentLength]
 * @property {number} [end]
 * @property {number} [bytes]  as transferred
 */

/** Installed before any script of the page runs: paint timings and layout shifts, buffered from the start. */
function observePaints() {
  /** @type {PaintRecord} */
  const bench = { fcp: null, lcp: null, lcpElement: null, cls: 0 };
  /** @type {BenchWindow} */ (window).__bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') bench.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    const entries = /** @type {LargestContentfulPaint[]} */ (list.getEntries());
    const last = entries[entries.length - 1];
    if (!last) return;
    bench.lcp = last.startTime;
    bench.lcpElement = last.element
      ? `${last.element.tagName.toLowerCase()} "${(last.element.textContent ?? '').slice(0, 40)}"`
      : null;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    const shifts = /** @type {LayoutShift[]} */ (list.getEntries());
    for (const shift of shifts) if (!shift.hadRecentInput) bench.cls += shift.value;
  }).observe({ type: 'layout-shift', buffered: true });
}

/**
 * The longest chain of requests, started before the largest paint, in which each request could only be made once the
 * one before it had arrived. A request's predecessor is the script (or document) that made it, except when a JSON
 * response arrived between that script and the request: then the JSON is what the script was waiting for
 * (remotes.json -> manifest -> remote entry), and it is the predecessor.
 * @param {LoggedRequest[]} requests
 * @param {number} lcp
 * @returns {LoggedRequest[]}
 */
function criticalChain(requests, lcp) {
  const beforeLcp = requests.filter((request) => request.start <= lcp);
  /** @type {Map<LoggedRequest, LoggedRequest[]>} */
  const depth = new Map();
  /** @type {(request: LoggedRequest) => LoggedRequest[]} */
  const chainOf = (request) => {
    const known = depth.get(request);
    if (known) return known;
    depth.set(request, [request]); // guards against cycles in odd initiator data
    let parent = beforeLcp
      .filter((candidate) => candidate.url === request.initiatorUrl && candidate.start < request.start)
      .at(-1);
    const json = beforeLcp
      .filter(
        (candidate) =>
          candidate.kind === 'json' &&
          candidate.end !== undefined &&
          candidate.end <= request.start &&
          (!parent || (parent.end !== undefined && candidate.end >= parent.end)),
      )
      .sort((a, b) => (a.end ?? 0) - (b.end ?? 0))
      .at(-1);
    if (json && request.initiatorType === 'script') parent = json;
    const chain = parent && parent !== request ? [...chainOf(parent), request] : [request];
    depth.set(request, chain);
    return chain;
  };
  return beforeLcp
    .map(chainOf)
    .reduce((longest, chain) => (chain.length > longest.length ? chain : longest), /** @type {LoggedRequest[]} */ ([]));
}

/**
 * @param {string} mimeType
 * @param {string} url
 */
function kindOf(mimeType, url) {
  if (/javascript/.test(mimeType)) return 'js';
  if (/css/.test(mimeType)) return 'css';
  if (/json/.test(mimeType)) return 'json';
  if (/html/.test(mimeType)) return 'html';
  return path.extname(new URL(url).pathname).slice(1) || 'other';
}

/**
 * Which package bundles a loaded script, from its source map in dist/: used to prove that React, react-dom and the
 * federation runtime are each loaded once.
 * @param {string} file
 * @returns {string[]}
 */
function bundledPackages(file) {
  try {
    const map = /** @type {{ sources: string[] }} */ (JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
    const found = new Set();
    for (const source of map.sources) {
      if (/node_modules\/react\/cjs\/react\.production/.test(source)) found.add('react');
      if (/node_modules\/react-dom\/cjs\/react-dom-client\.production/.test(source)) found.add('react-dom');
      if (/node_modules\/@module-federation\/runtime-core\//.test(source)) found.add('federation-runtime');
      if (/node_modules\/react-router\/dist\//.test(source)) found.add('react-router');
    }
    return [...found];
  } catch {
    return [];
  }
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {{ url: string, heading: string, distFor: (url: string) => string | undefined }} target
 *   distFor: the file in a dist/ folder that serves a URL, for the source-map check.
 */
async function measureVisit(browser, { url, heading, distFor }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // A gzip-only client: sizes are what any browser gets from a server without brotli.
    await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'gzip' } });
    /** @type {Map<string, LoggedRequest>} */
    const byId = new Map();
    /** @type {number | undefined} */
    let origin;
    cdp.on('Network.requestWillBeSent', (event) => {
      origin ??= event.timestamp;
      const { initiator } = event;
      const frames = [];
      for (let stack = initiator.stack; stack; stack = stack.parent) frames.push(...stack.callFrames);
      byId.set(event.requestId, {
        url: event.request.url,
        start: (event.timestamp - origin) * 1000,
        initiatorType: initiator.type,
        initiatorUrl: initiator.url || frames.find((frame) => frame.url)?.url,
      });
    });
    cdp.on('Network.responseReceived', (event) => {
      const request = byId.get(event.requestId);
      if (!request) return;
      const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
      request.kind = kindOf(event.response.mimeType, request.url);
      request.encoding = headers['content-encoding'];
      request.contentLength = headers['content-length'] ? Number(headers['content-length']) : undefined;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = byId.get(event.requestId);
      if (!request || origin === undefined) return;
      request.end = (event.timestamp - origin) * 1000;
      request.bytes = request.contentLength ?? event.encodedDataLength;
    });
    await page.addInitScript(observePaints);

    await page.goto(url, { waitUntil: 'load' });
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    const paints = await page.evaluate(() => ({
      .../** @type {BenchWindow} */ (window).__bench,
      // The shell marks when it starts prefetching other pages while idle: later requests are not the first load.
      prefetchAt: performance.getEntriesByName('nativegtm:idle-prefetch')[0]?.startTime ?? null,
    }));

    const all = [...byId.values()].filter((request) => !request.url.startsWith('data:'));
    // The field-data collector is idle work too (it loads after LCP, when the browser is idle), whichever comes first.
    const collector = all.filter((request) => FIELD_DATA_FILE.test(new URL(request.url).pathname));
    const firstLoad = all.filter(
      (request) => !collector.includes(request) && (paints.prefetchAt === null || request.start < paints.prefetchAt),
    );
    const prefetched = all.filter((request) => !firstLoad.includes(request) && !collector.includes(request));
    const js = (/** @type {LoggedRequest[]} */ list) => list.filter((request) => request.kind === 'js');
    const sum = (/** @type {LoggedRequest[]} */ list) =>
      list.reduce((total, request) => total + (request.bytes ?? 0), 0);
    const chain = criticalChain(firstLoad, paints.lcp ?? Infinity);
    /** @type {Record<string, number>} */
    const packages = {};
    for (const request of js(firstLoad)) {
      const file = distFor(request.url);
      for (const name of file ? bundledPackages(file) : []) packages[name] = (packages[name] ?? 0) + 1;
    }
    return {
      jsBytes: sum(js(firstLoad)),
      jsRequests: js(firstLoad).length,
      requests: firstLoad.length,
      criticalPath: chain.length,
      criticalChain: chain.map((request) => new URL(request.url).pathname),
      fcp: paints.fcp,
      lcp: paints.lcp,
      lcpElement: paints.lcpElement,
      cls: paints.cls,
      prefetchedJsBytes: sum(js(prefetched)),
      // What the issue of field data promised not to change: JavaScript asked for before the page's largest paint.
      jsBeforeLcpBytes: sum(js(all).filter((request) => request.start < (paints.lcp ?? Infinity))),
      fieldDataJsBytes: sum(js(collector)),
      prefetchedRequests: prefetched.length,
      gzipOnly: js(firstLoad).every((request) => request.encoding === 'gzip'),
      packages,
      files: firstLoad.map((request) => ({
        url: request.url,
        kind: request.kind,
        bytes: request.bytes,
        start: Math.round(request.start),
        end: request.end === undefined ? null : Math.round(request.end),
      })),
    };
  } finally {
    await context.close();
  }
}

/**
 * One load of `url` as a visitor's browser makes it, for its paint times only: a fresh context (empty cache), no
 * DevTools network instrumentation, the browser's own Accept-Encoding. Cheap enough to repeat many times: paints on
 * loopback vary by a frame or two from load to load, and the LCP ratios need many loads to mean anything.
 * @param {import('playwright-core').Browser} browser
 * @param {{ url: string }} target
 */
async function measurePaint(browser, { url }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(observePaints);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => /** @type {BenchWindow} */ (window).__bench.lcp !== null, undefined, {
      timeout: 10_000,
    });
    // Later candidates (and shifts) are reported within a frame or two of their paint.
    await page.waitForTimeout(250);
    const { fcp, lcp, cls } = await page.evaluate(() => /** @type {BenchWindow} */ (window).__bench);
    return { fcp, lcp, cls };
  } finally {
    await context.close();
  }
}

/**
 * Client-side navigation from `url` over a header link, once the first page has loaded and the browser has been idle:
 * the pointer moves onto the link, then clicks. The time runs from the click to the end of the first frame that shows
 * the new heading (checked in requestAnimationFrame, before that frame paints; a task queued there runs after it).
 * @param {import('playwright-core').Browser} browser
 * @param {{ url: string, linkName: string, heading: string, startHeading: string }} target
 *   heading: the new page's h1; startHeading: the first page's
 * @returns {Promise<number>} milliseconds
 */
async function measureNavigation(browser, { url, linkName, heading, startHeading }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.getByRole('heading', { level: 1, name: startHeading }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    await page.waitForLoadState('networkidle');
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: linkName });
    await link.hover();
    await page.waitForTimeout(100);
    // The page's promise resolves with the milliseconds, which evaluate cannot see through.
    return /** @type {number} */ (
      await link.evaluate(
        (/** @type {HTMLElement} */ element, expected) =>
          new Promise((resolve, reject) => {
            const timeout = setTimeout(() => reject(new Error(`"${expected}" did not appear within 10 s`)), 10_000);
            const started = performance.now();
            const check = () => {
              if (document.querySelector('h1')?.textContent !== expected) return requestAnimationFrame(check);
              setTimeout(() => {
                clearTimeout(timeout);
                resolve(performance.now() - started);
              }, 0);
            };
            element.click();
            requestAnimationFrame(check);
          }),
        heading,
      )
    );
  } finally {
    await context.close();
  }
}

/** @typedef {Awaited<ReturnType<typeof measureVisit>>} Visit */
/** @typedef {Awaited<ReturnType<typeof measurePaint>>} Paint */

module.exports = { measureVisit, measurePaint, measureNavigation };

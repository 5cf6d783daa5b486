#!/usr/bin/env node
// The server-cost probe of `npm run bench`, run as its own process so it does not share the server's event loop.
//   node tests/bench/load.js ttfb <url>… : median time to first byte of each URL over 50 sequential GETs (keep-alive)
//   node tests/bench/load.js quiet-ttfb <url>… : { first, steady }: the first GET of each URL (the server has
//     nothing of that page yet and fetches it from its remote), then the median of 10 GETs of each URL one second
//     apart, as a site with little traffic is asked (a server that only kept what it fetched for a moment would show
//     it here, not above; the document server keeps a page fresh for 30 s after it was asked for)
//   node tests/bench/load.js rate <connections> <ms> <url>… : page requests per second with that many keep-alive
//     connections, each requesting the URLs in turn for <ms>; counts answers with the expected status only
//   node tests/bench/load.js cannon <connections> <ms> <url>… : the same load from autocannon (an HTTP client fast
//     enough not to be the bottleneck against nginx), after a second of warm-up: requests/s, latency percentiles,
//     errors and non-2xx answers. No Accept-Encoding: documents and files alike are sent as they are.
//   node tests/bench/load.js beacons <per second> <ms> <url> : posts field-data beacons to <url> at that rate for <ms>
//     from one client (as a CDN's one address, over BEACON_CONNECTIONS connections), each one page view's
//     RECORDS_PER_BEACON records: how many were sent, accepted (204), refused and failed
// Prints one JSON object.
const http = require('node:http');
const autocannon = require('autocannon');

/** @param {number} sockets */
const agent = (sockets) => new http.Agent({ keepAlive: true, maxSockets: sockets });

// What a browser sends: the server answers the compressed document, as it does to visitors.
const headers = { 'Accept-Encoding': 'br, gzip' };

/**
 * @param {string} url
 * @param {http.Agent} httpAgent
 * @param {() => void} [onFirstByte]
 * @returns {Promise<number | undefined>} the status code
 */
function get(url, httpAgent, onFirstByte) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: httpAgent, headers }, (response) => {
      response.once('data', () => onFirstByte?.());
      response.on('end', () => resolve(response.statusCode));
      response.resume();
    });
    request.on('error', reject);
  });
}

/**
 * @param {number[]} values
 * @returns {number} NaN for none
 */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const at = (/** @type {number} */ index) => sorted[index] ?? Number.NaN;
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2;
};

/**
 * Milliseconds from sending one GET to its first body byte.
 * @param {string} url
 * @param {http.Agent} httpAgent
 */
async function timeToFirstByte(url, httpAgent) {
  const started = process.hrtime.bigint();
  let first = 0n;
  await get(url, httpAgent, () => {
    first = process.hrtime.bigint();
  });
  return Number(first - started) / 1e6;
}

/** @param {number} ms */
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {string[]} urls */
async function ttfb(urls) {
  const httpAgent = agent(1);
  /** @type {Record<string, number>} */
  const result = {};
  for (const url of urls) {
    const times = [];
    for (let run = 0; run < 55; run += 1) {
      const time = await timeToFirstByte(url, httpAgent);
      if (run >= 5) times.push(time); // the first five warm the caches up
    }
    result[url] = median(times);
  }
  return result;
}

/** @param {string[]} urls */
async function quietTtfb(urls) {
  const httpAgent = agent(1);
  /** @type {Record<string, number>} */
  const first = {};
  /** @type {Record<string, number[]>} */
  const times = {};
  for (let round = 0; round < 11; round += 1) {
    for (const url of urls) {
      await pause(1000 / urls.length);
      const time = await timeToFirstByte(url, httpAgent);
      if (round === 0) first[url] = time;
      else (times[url] ??= []).push(time);
    }
  }
  return { first, steady: Object.fromEntries(urls.map((url) => [url, median(times[url] ?? [])])) };
}

/**
 * @param {number} connections
 * @param {number} durationMs
 * @param {string[]} urls
 */
async function rate(connections, durationMs, urls) {
  const httpAgent = agent(connections);
  const deadline = Date.now() + durationMs;
  let ok = 0;
  let failed = 0;
  /** @param {number} offset */
  const worker = async (offset) => {
    for (let index = offset; Date.now() < deadline; index += 1) {
      const url = /** @type {string} */ (urls[index % urls.length]);
      try {
        const status = await get(url, httpAgent);
        if (status === 200) ok += 1;
        else failed += 1;
      } catch {
        failed += 1;
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, (_, index) => worker(index)));
  const seconds = (Date.now() - started) / 1000;
  return { requestsPerSecond: ok / seconds, ok, failed, connections, seconds };
}

/**
 * @param {number} connections
 * @param {number} durationMs
 * @param {string[]} urls all on one origin
 */
async function cannon(connections, durationMs, urls) {
  const origin = new URL(/** @type {string} */ (urls[0])).origin;
  const requests = urls.map((url) => ({ method: /** @type {const} */ ('GET'), path: new URL(url).pathname }));
  /** @param {number} seconds */
  const run = (seconds) => autocannon({ url: origin, connections, duration: seconds, requests });
  await run(1);
  const result = await run(durationMs / 1000);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
    connections,
    seconds: durationMs / 1000,
  };
}

/** The records of one beacon below: the view, LCP, FCP, TTFB and CLS (a view without an interaction has no INP). */
const RECORDS_PER_BEACON = 5;

/**
 * One page view's beacon, as the shell's collector sends it (the build is not the live one: its records count as
 * "other", which costs the server the same).
 * @param {number} lcp
 */
const beaconBody = (lcp) =>
  JSON.stringify({
    v: 1,
    first: true,
    view: { seq: 0, route: '/featured-jobs', remote: 'jobs', build: 'bench', nav: 'document', device: 'mobile' },
    vitals: [
      { name: 'LCP', value: lcp },
      { name: 'FCP', value: 500 },
      { name: 'TTFB', value: 40 },
      { name: 'CLS', value: 0.02 },
    ],
    errors: [],
  });

/** Connections the beacons come over: as a CDN forwards them, over a few kept-alive connections to the origin. */
const BEACON_CONNECTIONS = 8;

/**
 * Beacons posted at a rate by autocannon. Not node:http: at 400 a second its client costs this machine twice
 * autocannon's CPU, taken from the server it measures when both share the cores. autocannon keeps the rate per
 * connection and second: each connection posts its share of a second back to back, then waits for the next.
 * @param {number} perSecond
 * @param {number} durationMs
 * @param {string} url
 */
async function beacons(perSecond, durationMs, url) {
  const { origin, pathname } = new URL(url);
  const result = await autocannon({
    url: origin,
    connections: BEACON_CONNECTIONS,
    overallRate: perSecond,
    duration: durationMs / 1000,
    requests: Array.from({ length: 8 }, (_, index) => ({
      method: /** @type {const} */ ('POST'),
      path: pathname,
      headers: { 'Content-Type': 'application/json' },
      body: beaconBody(900 + index * 50),
    })),
  });
  const failed = result.errors + result.timeouts;
  return {
    // autocannon's own `requests.sent` counts a second's quota ahead: these are the beacons that were answered or failed.
    sent: result['2xx'] + result.non2xx + failed,
    accepted: result['2xx'],
    refused: result.non2xx,
    failed,
    perSecond,
    recordsPerBeacon: RECORDS_PER_BEACON,
    seconds: durationMs / 1000,
  };
}

async function main() {
  const [mode, ...args] = process.argv.slice(2);
  /** @type {Record<string, (urls: string[]) => Promise<object>>} */
  const modes = {
    ttfb,
    'quiet-ttfb': quietTtfb,
    rate: () => rate(Number(args[0]), Number(args[1]), args.slice(2)),
    cannon: () => cannon(Number(args[0]), Number(args[1]), args.slice(2)),
    beacons: () => beacons(Number(args[0]), Number(args[1]), String(args[2])),
  };
  const run = mode === undefined ? undefined : modes[mode];
  if (!run) throw new Error(`load.js: no mode ${mode}; the modes are ${Object.keys(modes).join(', ')}.`);
  const result = await run(args);
  process.stdout.write(JSON.stringify(result));
}

/** @typedef {Awaited<ReturnType<typeof ttfb>>} TtfbResult  by URL */
/** @typedef {Awaited<ReturnType<typeof quietTtfb>>} QuietTtfbResult  by URL */
/** @typedef {Awaited<ReturnType<typeof rate>>} RateResult */
/** @typedef {Awaited<ReturnType<typeof cannon>>} CannonResult */
/** @typedef {Awaited<ReturnType<typeof beacons>>} BeaconsResult */

module.exports = { RECORDS_PER_BEACON };

if (require.main === module)
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });

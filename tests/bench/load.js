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
//     errors and non-2xx answers. No Accept-Encoding: documents and files alike are sent as they are. With
//     LOAD_COOKIE set, every request carries it as its Cookie header (a visitor's canary bucket).
//   node tests/bench/load.js alternating <connections> <ms> <beacons per second> <beacon url> <url>… : the cannon
//     load, while another process posts field-data beacons to <beacon url> in every other second of the clock from
//     one client (as a CDN's one address, over BEACON_CONNECTIONS connections), each one page view's
//     RECORDS_PER_BEACON records; the seconds with beacons compared with those without (report/alternatingSeconds.js)
//   node tests/bench/load.js beacon-seconds <per second> <ms> <url> : that other process
// Prints one JSON object.
const http = require('node:http');
const { spawn } = require('node:child_process');
const autocannon = require('autocannon');
const { compareAlternatingSeconds, withBeacons } = require('./report/alternatingSeconds');
const { startPacedPoster } = require('./pacedPoster');

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
  const cookie = process.env.LOAD_COOKIE;
  const requests = urls.map((url) => ({
    method: /** @type {const} */ ('GET'),
    path: new URL(url).pathname,
    ...(cookie ? { headers: { cookie } } : {}),
  }));
  /** @param {number} seconds */
  const run = (seconds) => autocannon({ url: origin, connections, duration: seconds, requests });
  const warm = await run(1);
  const result = await run(durationMs / 1000);
  return {
    requestsPerSecond: result.requests.average,
    // With the measured ones: what the server's CPU time over the whole call was spent on.
    warmUpRequests: warm.requests.total,
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
 * Posts `perSecond` beacons, evenly spread, in every odd second of the clock (withBeacons) for `durationMs`.
 * @param {number} perSecond
 * @param {number} durationMs
 * @param {string} url
 */
async function beaconSeconds(perSecond, durationMs, url) {
  const started = Date.now();
  const first = Math.ceil(started / 1000);
  /** Odd numbers below a second: the seconds with beacons before it. */
  const oddBelow = (/** @type {number} */ second) => Math.floor(second / 2);
  const poster = startPacedPoster({
    url,
    body: beaconBody(1200),
    connections: BEACON_CONNECTIONS,
    dueBy(now) {
      const second = Math.floor(now / 1000);
      if (second < first) return 0;
      const whole = (oddBelow(second) - oddBelow(first)) * perSecond;
      return whole + (withBeacons(second) ? Math.floor(((now % 1000) / 1000) * perSecond) : 0);
    },
  });
  await pause(durationMs);
  return { ...(await poster.stop()), perSecond, recordsPerBeacon: RECORDS_PER_BEACON };
}

/**
 * The documents' load for `durationMs` (after a second of warm-up) while a second process posts `perSecond`
 * beacons in every other second; the seconds with beacons compared with those around them (alternatingSeconds.js).
 * @param {number} connections
 * @param {number} durationMs
 * @param {number} perSecond
 * @param {string} beaconUrl
 * @param {string[]} urls all on one origin
 */
async function alternating(connections, durationMs, perSecond, beaconUrl, urls) {
  const origin = new URL(/** @type {string} */ (urls[0])).origin;
  const cookie = process.env.LOAD_COOKIE;
  const requests = urls.map((url) => ({
    method: /** @type {const} */ ('GET'),
    path: new URL(url).pathname,
    ...(cookie ? { headers: { cookie } } : {}),
  }));
  // The poster starts first: it posts from the first whole second after it runs, which the warm-up second covers.
  const poster = runChild(['beacon-seconds', String(perSecond), String(durationMs + 2000), beaconUrl]);
  await autocannon({ url: origin, connections, duration: 1, requests });
  /** @type {Map<number, import('./report/alternatingSeconds').Second>} */
  const seconds = new Map();
  /** @type {autocannon.Result} */
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: origin, connections, duration: durationMs / 1000, requests },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode !== 200) return;
      const second = Math.floor(Date.now() / 1000);
      let entry = seconds.get(second);
      if (!entry) seconds.set(second, (entry = { second, answered: 0, latencies: [] }));
      entry.answered += 1;
      entry.latencies.push(responseTime);
    });
  });
  const beacons = await poster;
  // The first and the last second were cut short.
  const whole = [...seconds.values()].sort((a, b) => a.second - b.second).slice(1, -1);
  return {
    ...compareAlternatingSeconds(whole),
    answeredBySecond: whole.map((entry) => [entry.second, entry.answered]),
    requestsPerSecond: result.requests.average,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    connections,
    seconds: durationMs / 1000,
    beacons,
  };
}

/**
 * Runs this file with other arguments in a process of its own; resolves with what it prints.
 * @param {string[]} args
 * @returns {Promise<any>}
 */
function runChild(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load.js exited ${code}`))));
  });
}

async function main() {
  const [mode, ...args] = process.argv.slice(2);
  /** @type {Record<string, (urls: string[]) => Promise<object>>} */
  const modes = {
    ttfb,
    'quiet-ttfb': quietTtfb,
    rate: () => rate(Number(args[0]), Number(args[1]), args.slice(2)),
    cannon: () => cannon(Number(args[0]), Number(args[1]), args.slice(2)),
    'beacon-seconds': () => beaconSeconds(Number(args[0]), Number(args[1]), String(args[2])),
    alternating: () => alternating(Number(args[0]), Number(args[1]), Number(args[2]), String(args[3]), args.slice(4)),
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
/** @typedef {Awaited<ReturnType<typeof alternating>>} AlternatingResult */

module.exports = { RECORDS_PER_BEACON };

if (require.main === module)
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });

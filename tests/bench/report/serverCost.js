// What `npm run bench` measures of the document servers: time to first byte, requests/s, the load figures.

/**
 * One document server's cost (bench.js measureServer): milliseconds to first byte by route (back to back; each page
 * once a second; each page's first request), the remotes' fragment requests meanwhile, and page requests/s.
 * @typedef {object} ServerCost
 * @property {Record<string, number>} ttfb
 * @property {Record<string, number>} [quietTtfb]
 * @property {Record<string, number>} [firstTtfb]
 * @property {number} [fragmentRequestsPerSecond]  only where the bench runs the remotes' servers itself
 * @property {{ requestsPerSecond: number, connections: number, failed: number }} rate
 */

/**
 * One load figure (load.js cannon): requests/s, latency percentiles in ms, failures, and the server's CPU time per
 * request in microseconds (its processes', nginx's collector's included; none in results from before it was measured).
 * @typedef {{ requestsPerSecond: number, p50: number, p99: number, errors: number, non2xx: number,
 *   cpuUs?: number }} Load
 */

/**
 * The load figures of one run (bench.js measureNginx), in rounds; in each, one after the other at `connections` for
 * `seconds`: a static file of about the documents' size from nginx, the documents from that nginx, the documents from
 * `npm start`. Index i of each list is round i.
 * @typedef {object} LoadFigures
 * @property {number} connections
 * @property {number} seconds
 * @property {number} documentBytes  the documents' average size, as sent (no compression)
 * @property {{ path: string, bytes: number }} staticFile
 * @property {Load[]} static
 * @property {Load[]} nginx
 * @property {Load[]} builtIn
 * @property {{ nginx: BeaconLoad, builtIn: BeaconLoad }} [beacons]  each server's documents with field-data
 *   beacons posted to it in every other second (load.js alternating)
 */

/**
 * @typedef {import('./alternatingSeconds').AlternatingComparison & { requestsPerSecond: number, seconds: number,
 *   errors: number, non2xx: number,
 *   beacons: { accepted: number, refused: number, failed: number, due: number, perSecond: number,
 *   recordsPerBeacon: number } }} BeaconLoad
 *   beacons: what the poster did: answers, and how many beacons were due at its pace
 */

/**
 * Time to first byte as a busy site sees it (back-to-back requests), as one with little traffic does (each page once
 * a second: a server that kept fetched fragments only for a moment would be fast in the first and not here), and on
 * a page's first request, when the server has nothing of it and waits for its remote (one request per route: the
 * first visit after start, or after 30 s without one).
 * @param {ServerCost} server
 * @returns {[string, Record<string, number>][]}
 */
function ttfbSeries(server) {
  return [
    ['back to back', server.ttfb],
    ['one a second', server.quietTtfb ?? {}],
    ['first request', server.firstTtfb ?? {}],
  ];
}

/**
 * The series the 15 ms budget is about: medians. A first request is one sample that also pays for the server's own
 * start (its first documents, its first connection to each remote); it is printed, not judged.
 */
const JUDGED_TTFB = new Set(['back to back', 'one a second']);

/**
 * The document servers measured: the built-in one, and nginx with the generated configuration when it ran.
 * @param {{ server?: ServerCost, nginxServer?: ServerCost }} result
 */
function serversOf(result) {
  /** @type {[string, ServerCost][]} */
  const servers = [];
  if (result.server) servers.push(['built-in server', result.server]);
  if (result.nginxServer) servers.push(['nginx', result.nginxServer]);
  return servers;
}

module.exports = { ttfbSeries, JUDGED_TTFB, serversOf };

// The shape of a run of `npm run bench`: what bench.js measures, judges and writes, and what the renderers read.

/** @typedef {import('./statistics').VisitSummary} VisitSummary */
/** @typedef {import('./statistics').LighthouseSummary} LighthouseSummary */
/** @typedef {import('./serverCost').ServerCost} ServerCost */
/** @typedef {import('./serverCost').LoadFigures} LoadFigures */
/** @typedef {import('./budgets').LighthouseByBuild} LighthouseByBuild */
/** @typedef {import('./budgets').Budget} Budget */

/**
 * @typedef {object} RouteReport
 * @property {string} path
 * @property {VisitSummary} composed
 * @property {VisitSummary} monolith
 * @property {VisitSummary} prerendered
 * @property {LighthouseByBuild | null} lighthouse  null when Lighthouse did not run
 */

/** @typedef {{ median: number | null, runs: number[] }} NavigationTimes  milliseconds from click to painted */

/**
 * A run of `npm run bench`, as bench.js writes it into bench-results/ and renderText and renderMarkdown show it.
 * @typedef {object} BenchReport
 * @property {string} date
 * @property {{ node: string, chromium: string, cpus: number }} environment
 * @property {{ runs: number, paintRuns?: number, lighthouseRuns: number }} settings
 * @property {ServerCost} server
 * @property {ServerCost} [nginxServer]  measured when nginx is installed
 * @property {LoadFigures} [load]  measured when nginx is installed
 * @property {RouteReport[]} routes
 * @property {{ from: string, to: string, composed: NavigationTimes, monolith: NavigationTimes }[]} navigations
 * @property {LighthouseSummary | null} [reactFloor]  Lighthouse on the smallest React page (tests/bench/reactFloor)
 * @property {Budget[]} budgets
 */

module.exports = {};

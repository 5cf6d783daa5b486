// What the printed and the Markdown report both show of a bench run: the rows of its tables, and the React floor.
const { fmtKB, fmtMs, fmtRatio, fmtNumber, fmtInterval } = require('./format');
const { ratio, overRounds, prerenderedLcpInterval } = require('./statistics');

/** @typedef {import('./benchReport').RouteReport} RouteReport */
/** @typedef {import('./statistics').LighthouseSummary} LighthouseSummary */
/** @typedef {import('./serverCost').Load} Load */
/** @typedef {import('./serverCost').LoadFigures} LoadFigures */

const HEADER = ['', 'composed', 'monolith', 'composed/monolith', 'pre-rendered monolith', 'composed/pre-rendered'];

/**
 * Rows of the per-route table: [metric, composed, monolith, composed/monolith, pre-rendered monolith,
 * composed/pre-rendered].
 * @param {RouteReport} route
 * @returns {string[][]}
 */
function routeRows(route) {
  const variants = [route.composed, route.monolith, route.prerendered];
  const lighthouse = [route.lighthouse?.composed, route.lighthouse?.monolith, route.lighthouse?.prerendered];
  /**
   * One metric of the three builds, `n/a` for a build not measured.
   * @template S
   * @param {string} label
   * @param {(S | null | undefined)[]} sources  composed, monolith, pre-rendered monolith
   * @param {(source: S) => number | null} pick
   * @param {(value: number | null | undefined) => string} format
   * @param {boolean} [ratios]  whether the ratios between builds mean anything for this metric
   */
  const row = (label, sources, pick, format, ratios = true) => {
    const [c, m, p] = sources.map((source) => (source ? pick(source) : undefined));
    const cell = (/** @type {number | null | undefined} */ value, /** @type {S | null | undefined} */ source) =>
      source ? format(value) : 'n/a';
    return [
      label,
      cell(c, sources[0]),
      cell(m, sources[1]),
      ratios ? fmtRatio(ratio(c, m)) : '',
      cell(p, sources[2]),
      ratios ? fmtRatio(ratio(c, p)) : '',
    ];
  };
  const rows = [
    row('JS transferred (gzip)', variants, (v) => v.jsBytes, fmtKB),
    row('JS requested before LCP (gzip)', variants, (v) => v.jsBeforeLcpBytes, fmtKB),
    row('JS files', variants, (v) => v.jsRequests, fmtNumber),
    row('requests', variants, (v) => v.requests, fmtNumber),
    row('critical path (requests)', variants, (v) => v.criticalPath, fmtNumber),
    row('FCP', variants, (v) => v.fcp, fmtMs),
    row('LCP', variants, (v) => v.lcp, fmtMs),
    ['LCP ratio, 90 % interval', '', '', '', '', fmtInterval(prerenderedLcpInterval(route))],
    row(
      'CLS',
      variants,
      (v) => v.cls,
      (value) => fmtNumber(value, 3),
      false,
    ),
  ];
  if (lighthouse[0]) {
    rows.push(
      row('Lighthouse mobile score', lighthouse, (v) => v.score, fmtNumber, false),
      row('Lighthouse LCP (simulated)', lighthouse, (v) => v.lcp, fmtMs),
      row('Lighthouse TBT (simulated)', lighthouse, (v) => v.tbt, fmtMs),
      row('Lighthouse longest task after first paint (simulated)', lighthouse, (v) => v.longestTask, fmtMs),
      // TBT is the start-up's tasks times 4: it follows the machine's speed, which can move between runs.
      row('Lighthouse CPU benchmark (this machine)', lighthouse, (v) => v.benchmarkIndex, fmtNumber, false),
      row(
        'Lighthouse CLS',
        lighthouse,
        (v) => v.cls,
        (value) => fmtNumber(value, 3),
        false,
      ),
    );
  }
  if (route.composed.fieldDataJsBytes) {
    rows.push([
      'JS of the field-data collector (after LCP, idle)',
      fmtKB(route.composed.fieldDataJsBytes),
      '',
      '',
      '',
      '',
    ]);
  }
  if (route.composed.prefetchedJsBytes) {
    rows.push(['JS prefetched once idle (not in first load)', fmtKB(route.composed.prefetchedJsBytes), '', '', '', '']);
  }
  return rows;
}

/**
 * The load figures as rows, medians over the rounds: what was measured, requests/s, ratio, p50, p99, failures.
 * @param {LoadFigures} load
 * @returns {string[][]}
 */
function loadRows(load) {
  /** @type {[string, Load[]][]} */
  const all = [
    [`static file ${load.staticFile.path} (${fmtKB(load.staticFile.bytes)}), nginx`, load.static],
    [`documents (${fmtKB(load.documentBytes)} on average), nginx`, load.nginx],
    ['documents, npm start (a worker per core)', load.builtIn],
  ];
  return all.map(([label, rounds]) => {
    const figures = overRounds(rounds, load.static);
    return [
      label,
      fmtNumber(figures.requestsPerSecond),
      `${fmtRatio(figures.ratio)}x`,
      `${figures.p50} ms`,
      `${figures.p99} ms`,
      Number.isNaN(figures.cpuUs) ? '' : `${fmtNumber(Math.round(figures.cpuUs))} µs`,
      String(figures.failures),
    ];
  });
}

const LOAD_HEADER = ['', 'requests/s', 'of the static file', 'p50', 'p99', 'server CPU per request', 'errors'];

/**
 * The smallest React page's Lighthouse runs, in one line: what React DOM's own start-up scores on this machine.
 * @param {LighthouseSummary} floor
 */
function reactFloorLine(floor) {
  const each = (/** @type {(run: import('../lighthouse').LighthouseRun) => number | null | undefined} */ pick) =>
    floor.runs.map((run) => fmtNumber(pick(run) ?? null)).join(', ');
  return (
    `React floor (React DOM hydrating three elements, started as the shell starts), Lighthouse mobile: ` +
    `scores ${each((run) => run.score)}; TBT ${each((run) => run.tbt)} ms; longest task after first paint ` +
    `${each((run) => run.longestTask)} ms (simulated); CPU benchmark ${each((run) => run.benchmarkIndex)}`
  );
}

module.exports = { HEADER, LOAD_HEADER, routeRows, loadRows, reactFloorLine };

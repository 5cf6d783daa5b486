// Medians, budgets and the tables `npm run bench` prints and writes (JSON + Markdown).

/** @typedef {import('./measure').Visit} Visit */
/** @typedef {import('./measure').Paint} Paint */
/** @typedef {import('./lighthouse').LighthouseRun} LighthouseRun */
/** @typedef {ReturnType<typeof summarizeVisits>} VisitSummary */
/** @typedef {NonNullable<ReturnType<typeof summarizeLighthouse>>} LighthouseSummary */

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
 * One load figure (load.js cannon): requests/s, latency percentiles in ms, failures.
 * @typedef {{ requestsPerSecond: number, p50: number, p99: number, errors: number, non2xx: number }} Load
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
 */

/**
 * What the budgets read of one build of one route: a VisitSummary has it all.
 * @typedef {object} BuildFigures
 * @property {number | null} jsBytes
 * @property {number | null} lcp
 * @property {number | null} cls
 * @property {Record<string, number>} packages  how many loaded scripts bundle each package
 * @property {{ lcp: number | null }[]} [runs]
 * @property {{ lcp: number | null }[]} [paints]
 */

/**
 * @typedef {object} LighthouseByBuild
 * @property {LighthouseSummary | null} composed
 * @property {LighthouseSummary | null} [monolith]
 * @property {LighthouseSummary | null} [prerendered]
 */

/**
 * What the budgets read of one route.
 * @typedef {object} JudgedRoute
 * @property {string} path
 * @property {BuildFigures} composed
 * @property {BuildFigures} monolith
 * @property {BuildFigures | null} [prerendered]  the pre-rendered monolith
 * @property {LighthouseByBuild | null} [lighthouse]
 */

/**
 * What evaluateBudgets reads of a bench result.
 * @typedef {object} BudgetInput
 * @property {JudgedRoute[]} routes
 * @property {{ from: string, to: string, composed: { median: number | null } }[]} navigations
 * @property {ServerCost} [server]  the built-in one
 * @property {ServerCost} [nginxServer]
 * @property {LoadFigures} [load]  measured when nginx is installed
 */

/** @typedef {{ name: string, value: string, limit: string, met: boolean }} Budget */

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
 * A run of `npm run bench`, as bench.js writes it into bench-results/ and this file renders it.
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

const KB = 1000;

/**
 * What composition adds to each route's first-load JavaScript over the monolith (gzip bytes, composed minus monolith),
 * at its floor: the federation runtime and the remote's entry, measured on 2026-11-25 after the work to shrink them
 * (docs/performance.md). The monolith loads every page; a composed route loads the shell and one page, so the figure
 * differs by route.
 * @type {Record<string, number>}
 */
const JS_OVERHEAD_FLOOR = {
  '/': 35_117,
  '/employers': 35_169,
  '/featured-jobs': 36_190,
  '/coming-soon': 33_935,
};

/** The budgets of the composed site (first visit, empty cache). See docs/performance.md. */
const BUDGETS = {
  homeJsBytes: 160 * KB,
  // What composition adds to a route's first-load JavaScript over the monolith may grow 2 KB over its measured floor
  // (JS_OVERHEAD_FLOOR), no more.
  jsOverheadMarginBytes: 2 * KB,
  // Pages arrive rendered (server composition): the composed site must paint well before the client-rendered monolith,
  // and cost little against a monolith that is pre-rendered too.
  lcpRatio: 0.75,
  prerenderedLcpRatio: 1.1,
  lighthouseScore: 100,
  lighthouseLcpMs: 1200,
  cls: 0.05,
  navigationMs: 100,
  // Server cost of composing documents (loopback), for the built-in server and for nginx.
  ttfbMs: 15,
  // Under load (100 connections, one run), against a static file of the documents' size from the same nginx:
  // documents must cost little more than files to serve.
  nginxLoadRatio: 0.5,
  nginxP99Ms: 25,
  builtInLoadRatio: 0.45,
};

/**
 * @param {unknown} value
 * @returns {value is number}
 */
const isFiniteNumber = (value) => typeof value === 'number' && Number.isFinite(value);

/**
 * The median of the finite numbers among `values`, or null without any.
 * @param {readonly unknown[]} values
 * @returns {number | null}
 */
function median(values) {
  const numbers = values.filter(isFiniteNumber).sort((a, b) => a - b);
  if (numbers.length === 0) return null;
  const middle = Math.floor(numbers.length / 2);
  // In range: numbers is not empty, and has two around the middle when its length is even.
  const upper = /** @type {number} */ (numbers[middle]);
  if (numbers.length % 2) return upper;
  const lower = /** @type {number} */ (numbers[middle - 1]);
  return (lower + upper) / 2;
}

/**
 * The median of each numeric field over runs; package counts take the worst run. Paint times (FCP, LCP, CLS) come
 * from the paint loads when there are any (measurePaint: many more, and without DevTools instrumentation).
 * @param {Visit[]} runs
 * @param {Paint[]} [paints]
 */
function summarizeVisits(runs, paints = []) {
  const fields = /** @type {const} */ ([
    'jsBytes',
    'jsRequests',
    'requests',
    'criticalPath',
    'fcp',
    'lcp',
    'cls',
    'prefetchedJsBytes',
  ]);
  /** @typedef {(typeof fields)[number]} Field */
  /** @type {Set<Field>} */
  const paintFields = new Set(['fcp', 'lcp', 'cls']);
  /**
   * @param {Field} field
   * @returns {{ [field in Field]?: number | null }[]}
   */
  const sourceOf = (field) => (paints.length && paintFields.has(field) ? paints : runs);
  const summary = /** @type {Record<Field, number | null>} */ (
    Object.fromEntries(fields.map((field) => [field, median(sourceOf(field).map((run) => run[field]))]))
  );
  /** @type {Record<string, number>} */
  const packages = {};
  for (const run of runs) {
    for (const [name, count] of Object.entries(run.packages)) packages[name] = Math.max(packages[name] ?? 0, count);
  }
  const typical = runs.find((run) => run.criticalPath === summary.criticalPath) ?? runs[0];
  return {
    ...summary,
    packages,
    gzipOnly: runs.every((run) => run.gzipOnly),
    criticalChain: typical?.criticalChain ?? [],
    lcpElement: typical?.lcpElement ?? null,
    runs,
    paints,
  };
}

/**
 * The median of each of Lighthouse's numbers over runs, or null without runs.
 * @param {LighthouseRun[] | undefined} runs
 */
function summarizeLighthouse(runs) {
  if (!runs?.length) return null;
  const fields = /** @type {const} */ (['score', 'fcp', 'lcp', 'tbt', 'cls', 'si', 'benchmarkIndex', 'longestTask']);
  const medians = /** @type {Record<(typeof fields)[number], number | null>} */ (
    Object.fromEntries(fields.map((field) => [field, median(runs.map((run) => run[field] ?? null))]))
  );
  return { ...medians, runs };
}

/**
 * @param {number | null | undefined} a
 * @param {number | null | undefined} b
 */
const ratio = (a, b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? a / b : null);

/**
 * A small seeded generator (mulberry32): the same runs give the same interval on every report.
 * @param {number} seed
 */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * How far the ratio of two medians could move with other loads of the same pages: a percentile bootstrap (`resamples`
 * times, with replacement). Paints on loopback vary by a frame or two from load to load, so a ratio of medians of 15
 * loads moves by several percent between runs of the same code; the interval says how much, next to the figure the
 * budget is judged on. `paired`: the series are loads made in the same rounds (the bench alternates the builds
 * within a round), so a round is resampled as a whole and what slowed the machine down during it counts for both;
 * otherwise each series is resampled on its own.
 * @param {readonly (number | null)[]} numerators  what is not a finite number is left out
 * @param {readonly (number | null)[]} denominators
 * @param {{ level?: number, resamples?: number, seed?: number, paired?: boolean }} [options]
 * @returns {{ low: number, high: number } | null}
 */
function ratioInterval(numerators, denominators, { level = 0.9, resamples = 2000, seed = 1, paired = false } = {}) {
  const random = seededRandom(seed);
  /**
   * One of `values`, drawn at random.
   * @template T
   * @param {readonly T[]} values  not empty
   * @returns {T}
   */
  const pickFrom = (values) => /** @type {T} */ (values[Math.floor(random() * values.length)]);
  /** @type {() => number | null} */
  let draw;
  if (paired && numerators.length === denominators.length) {
    /** @type {[number, number][]} */
    const rounds = [];
    for (const [index, a] of numerators.entries()) {
      const b = denominators[index];
      if (isFiniteNumber(a) && isFiniteNumber(b)) rounds.push([a, b]);
    }
    if (rounds.length < 2) return null;
    draw = () => {
      const sample = rounds.map(() => pickFrom(rounds));
      return ratio(median(sample.map(([a]) => a)), median(sample.map(([, b]) => b)));
    };
  } else {
    const a = numerators.filter(isFiniteNumber);
    const b = denominators.filter(isFiniteNumber);
    if (a.length < 2 || b.length < 2) return null;
    const resample = (/** @type {number[]} */ values) => values.map(() => pickFrom(values));
    draw = () => ratio(median(resample(a)), median(resample(b)));
  }
  /** @type {number[]} */
  const ratios = [];
  for (let i = 0; i < resamples; i += 1) {
    const value = draw();
    if (value !== null) ratios.push(value);
  }
  if (ratios.length === 0) return null;
  ratios.sort((x, y) => x - y);
  const at = (/** @type {number} */ quantile) =>
    /** @type {number} */ (ratios[Math.min(ratios.length - 1, Math.floor(quantile * ratios.length))]);
  return { low: at((1 - level) / 2), high: at((1 + level) / 2) };
}

/**
 * The 90 % interval of a route's composed/pre-rendered LCP ratio, from its loopback loads.
 * @param {JudgedRoute} route
 */
function prerenderedLcpInterval(route) {
  const loads = (/** @type {BuildFigures} */ summary) =>
    summary.paints?.length ? summary.paints : (summary.runs ?? []);
  if (!route.prerendered?.runs) return null;
  // The paint loads are made in rounds, one load of each build per round: paired. The instrumented runs too.
  return ratioInterval(
    loads(route.composed).map((run) => run.lcp),
    loads(route.prerendered).map((run) => run.lcp),
    { paired: true },
  );
}

/** @param {{ low: number, high: number } | null} interval */
const fmtInterval = (interval) => (interval ? `${interval.low.toFixed(2)}-${interval.high.toFixed(2)}` : 'n/a');

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

/**
 * Every budget, with the measured value and whether it is met. A figure that could not be measured misses its budget.
 * @param {BudgetInput} result
 */
function evaluateBudgets(result) {
  /** @type {Budget[]} */
  const checks = [];
  /**
   * @param {string} name
   * @param {string} value
   * @param {string} limit
   * @param {boolean} met
   */
  const check = (name, value, limit, met) => checks.push({ name, value, limit, met: Boolean(met) });
  const homeJsBytes = result.routes.find((route) => route.path === '/')?.composed.jsBytes ?? null;
  check(
    'first load of / : gzip JavaScript',
    `${fmtKB(homeJsBytes)}`,
    `<= ${fmtKB(BUDGETS.homeJsBytes)}`,
    homeJsBytes !== null && homeJsBytes <= BUDGETS.homeJsBytes,
  );
  for (const route of result.routes) {
    const { packages } = route.composed;
    for (const name of ['react', 'react-dom', 'federation-runtime']) {
      check(`${route.path}: ${name} loaded once`, `${packages[name] ?? 0}x`, '1x', packages[name] === 1);
    }
    const overhead =
      route.composed.jsBytes === null || route.monolith.jsBytes === null
        ? null
        : route.composed.jsBytes - route.monolith.jsBytes;
    const lcpRatio = ratio(route.composed.lcp, route.monolith.lcp);
    const floor = JS_OVERHEAD_FLOOR[route.path];
    const limit = floor === undefined ? null : floor + BUDGETS.jsOverheadMarginBytes;
    check(
      `${route.path}: JS composed minus monolith`,
      fmtKB(overhead),
      `<= ${fmtKB(limit)} (floor ${fmtKB(floor)} + ${fmtKB(BUDGETS.jsOverheadMarginBytes)})`,
      overhead !== null && limit !== null && overhead <= limit,
    );
    check(
      `${route.path}: LCP composed/monolith`,
      fmtRatio(lcpRatio),
      `<= ${BUDGETS.lcpRatio}`,
      lcpRatio !== null && lcpRatio <= BUDGETS.lcpRatio,
    );
    if (route.prerendered) {
      const prerenderedRatio = ratio(route.composed.lcp, route.prerendered.lcp);
      check(
        `${route.path}: LCP composed/pre-rendered monolith`,
        `${fmtRatio(prerenderedRatio)} (90 % interval ${fmtInterval(prerenderedLcpInterval(route))})`,
        `<= ${BUDGETS.prerenderedLcpRatio}`,
        prerenderedRatio !== null && prerenderedRatio <= BUDGETS.prerenderedLcpRatio,
      );
    }
    if (route.lighthouse?.composed) {
      const lh = route.lighthouse.composed;
      check(
        `${route.path}: Lighthouse mobile performance`,
        String(lh.score),
        `>= ${BUDGETS.lighthouseScore}`,
        lh.score !== null && lh.score >= BUDGETS.lighthouseScore,
      );
      check(
        `${route.path}: CLS (Lighthouse)`,
        fmtNumber(lh.cls, 3),
        `< ${BUDGETS.cls}`,
        lh.cls !== null && lh.cls < BUDGETS.cls,
      );
      check(
        `${route.path}: LCP (Lighthouse, simulated mobile)`,
        fmtMs(lh.lcp),
        `<= ${fmtMs(BUDGETS.lighthouseLcpMs)}`,
        lh.lcp !== null && lh.lcp <= BUDGETS.lighthouseLcpMs,
      );
    }
    const { cls } = route.composed;
    check(`${route.path}: CLS (bench runs)`, fmtNumber(cls, 3), `< ${BUDGETS.cls}`, cls !== null && cls < BUDGETS.cls);
  }
  for (const [label, server] of serversOf(result)) {
    for (const [kind, times] of ttfbSeries(server).filter(([kind]) => JUDGED_TTFB.has(kind))) {
      for (const [route, ms] of Object.entries(times)) {
        check(
          `${route}: time to first byte, ${kind} (${label})`,
          `${ms.toFixed(1)} ms`,
          `<= ${BUDGETS.ttfbMs} ms`,
          ms <= BUDGETS.ttfbMs,
        );
      }
    }
  }
  if (result.load) checks.push(...loadBudgets(result.load));
  for (const navigation of result.navigations) {
    const { median: painted } = navigation.composed;
    check(
      `navigation ${navigation.from} -> ${navigation.to}: new page painted`,
      fmtMs(painted),
      `<= ${BUDGETS.navigationMs} ms`,
      painted !== null && painted <= BUDGETS.navigationMs,
    );
  }
  return checks;
}

/**
 * One target's figures over the rounds: the median of each, failures summed, and its requests/s as a ratio of the
 * static file's in the same round (the median of the rounds' ratios).
 * @param {Load[]} rounds
 * @param {Load[]} staticRounds
 */
function overRounds(rounds, staticRounds) {
  const pick = (/** @type {(load: Load) => number} */ read) => median(rounds.map(read)) ?? Number.NaN;
  return {
    requestsPerSecond: pick((load) => load.requestsPerSecond),
    ratio:
      median(rounds.map((load, index) => load.requestsPerSecond / (staticRounds[index]?.requestsPerSecond ?? NaN))) ??
      Number.NaN,
    p50: pick((load) => load.p50),
    p99: pick((load) => load.p99),
    failures: rounds.reduce((sum, load) => sum + load.errors + load.non2xx, 0),
  };
}

/**
 * The load budgets: each server's documents as a ratio of the static file's requests/s in the same round, nginx's
 * p99, no failure anywhere.
 * @param {LoadFigures} load
 * @returns {Budget[]}
 */
function loadBudgets(load) {
  const at = `${load.connections} connections`;
  const nginx = overRounds(load.nginx, load.static);
  const builtIn = overRounds(load.builtIn, load.static);
  /** @type {[string, ReturnType<typeof overRounds>][]} */
  const all = [
    ['static file (nginx)', overRounds(load.static, load.static)],
    ['documents (nginx)', nginx],
    ['documents (npm start)', builtIn],
  ];
  return [
    {
      name: `documents/static file requests/s, nginx, ${at}`,
      value: fmtRatio(nginx.ratio),
      limit: `>= ${BUDGETS.nginxLoadRatio}`,
      met: nginx.ratio >= BUDGETS.nginxLoadRatio,
    },
    {
      name: `documents p99, nginx, ${at}`,
      value: `${nginx.p99} ms`,
      limit: `<= ${BUDGETS.nginxP99Ms} ms`,
      met: nginx.p99 <= BUDGETS.nginxP99Ms,
    },
    {
      name: `documents (npm start)/static file (nginx) requests/s, ${at}`,
      value: fmtRatio(builtIn.ratio),
      limit: `>= ${BUDGETS.builtInLoadRatio}`,
      met: builtIn.ratio >= BUDGETS.builtInLoadRatio,
    },
    ...all.map(([label, figures]) => ({
      name: `errors and non-2xx answers, ${label}`,
      value: String(figures.failures),
      limit: '0',
      met: figures.failures === 0,
    })),
  ];
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
      String(figures.failures),
    ];
  });
}

const LOAD_HEADER = ['', 'requests/s', 'of the static file', 'p50', 'p99', 'errors'];

/** @param {number | null | undefined} bytes */
function fmtKB(bytes) {
  return typeof bytes === 'number' ? `${(bytes / KB).toFixed(1)} KB` : 'n/a';
}
/** @param {number | null | undefined} ms */
function fmtMs(ms) {
  return typeof ms === 'number' ? `${Math.round(ms)} ms` : 'n/a';
}
/** @param {number | null | undefined} value */
function fmtRatio(value) {
  return typeof value === 'number' ? value.toFixed(2) : 'n/a';
}
/**
 * @param {number | null | undefined} value
 * @param {number} [digits]
 */
function fmtNumber(value, digits = 0) {
  return typeof value === 'number' ? value.toFixed(digits) : 'n/a';
}

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
  if (route.composed.prefetchedJsBytes) {
    rows.push(['JS prefetched once idle (not in first load)', fmtKB(route.composed.prefetchedJsBytes), '', '', '', '']);
  }
  return rows;
}

/**
 * @param {string[]} header
 * @param {string[][]} rows
 */
function markdownTable(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

/**
 * @param {string[]} header
 * @param {string[][]} rows  as long as the header
 */
function textTable(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => String(row[i]).length)));
  const line = (/** @type {string[]} */ row) =>
    row
      .map((cell, i) => {
        const width = /** @type {number} */ (widths[i]);
        return i === 0 ? String(cell).padEnd(width) : String(cell).padStart(width);
      })
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const HEADER = ['', 'composed', 'monolith', 'composed/monolith', 'pre-rendered monolith', 'composed/pre-rendered'];

/**
 * The smallest React page's Lighthouse runs, in one line: what React DOM's own start-up scores on this machine.
 * @param {LighthouseSummary} floor
 */
function reactFloorLine(floor) {
  const each = (/** @type {(run: import('./lighthouse').LighthouseRun) => number | null | undefined} */ pick) =>
    floor.runs.map((run) => fmtNumber(pick(run) ?? null)).join(', ');
  return (
    `React floor (React DOM hydrating three elements, started as the shell starts), Lighthouse mobile: ` +
    `scores ${each((run) => run.score)}; TBT ${each((run) => run.tbt)} ms; longest task after first paint ` +
    `${each((run) => run.longestTask)} ms (simulated); CPU benchmark ${each((run) => run.benchmarkIndex)}`
  );
}

/** @param {BenchReport} result */
function renderText(result) {
  const parts = [];
  for (const route of result.routes) parts.push(`\n${route.path}\n${textTable(HEADER, routeRows(route))}`);
  for (const navigation of result.navigations) {
    parts.push(
      `\nclient-side navigation ${navigation.from} -> ${navigation.to} (click to painted, median of ${navigation.composed.runs.length}): ` +
        `composed ${fmtMs(navigation.composed.median)}, monolith ${fmtMs(navigation.monolith.median)}`,
    );
  }
  for (const [label, server] of serversOf(result)) {
    parts.push(
      `\n${label}: time to first byte ${ttfbSeries(server)
        .map(
          ([kind, times]) =>
            `${kind}: ${Object.entries(times)
              .map(([route, ms]) => `${route} ${ms.toFixed(1)} ms`)
              .join(', ')}`,
        )
        .join('; ')}; ${fmtNumber(server.rate.requestsPerSecond)} page requests/s with ` +
        `${server.rate.connections} connections (${server.rate.failed} failed)` +
        (server.fragmentRequestsPerSecond === undefined
          ? ''
          : `; the remotes got ${server.fragmentRequestsPerSecond.toFixed(1)} requests/s for fragments ` +
            'while each page was asked for once a second'),
    );
  }
  if (result.reactFloor) parts.push(`\n${reactFloorLine(result.reactFloor)}`);
  if (result.load) {
    parts.push(
      `\nUnder load, ${result.load.connections} connections, ${result.load.static.length} rounds of ` +
        `${result.load.seconds} s each (medians):\n` +
        textTable(LOAD_HEADER, loadRows(result.load)),
    );
  }
  parts.push(
    `\nBudgets:\n${result.budgets
      .map((b) => `  ${b.met ? 'ok    ' : 'MISSED'} ${b.name}: ${b.value} (budget ${b.limit})`)
      .join('\n')}`,
  );
  return parts.join('\n');
}

/** @param {BenchReport} result */
function renderMarkdown(result) {
  const parts = [
    `# Benchmark: composed site vs monolith (client-rendered and pre-rendered)`,
    '',
    `${result.date} · ${result.environment.chromium} · Node ${result.environment.node} · ` +
      `${result.environment.cpus} CPUs · ${result.settings.runs} runs per route (median, after a warm-up), ` +
      `paint times from ${result.settings.paintRuns ?? result.settings.runs} loads per route · ` +
      `Lighthouse ${result.settings.lighthouseRuns} runs per route (median)`,
  ];
  for (const route of result.routes) {
    parts.push('', `## ${route.path}`, '', markdownTable(HEADER, routeRows(route)));
    parts.push('', `Critical path (composed): ${route.composed.criticalChain.join(' → ')}`);
  }
  parts.push('', '## Client-side navigation', '');
  parts.push(
    markdownTable(
      ['', 'composed', 'monolith'],
      result.navigations.map((n) => [`${n.from} → ${n.to}`, fmtMs(n.composed.median), fmtMs(n.monolith.median)]),
    ),
  );
  if (result.reactFloor) parts.push('', '## React floor', '', reactFloorLine(result.reactFloor));
  for (const [label, server] of serversOf(result)) {
    parts.push('', `## Server cost (${label}, loopback)`, '');
    parts.push(
      markdownTable(
        ['', 'value'],
        [
          ...ttfbSeries(server).flatMap(([kind, times]) =>
            Object.entries(times).map(([route, ms]) => [
              `${route}: time to first byte, ${kind}${JUDGED_TTFB.has(kind) ? ' (median)' : ''}`,
              `${ms.toFixed(1)} ms`,
            ]),
          ),
          [`page requests/s, ${server.rate.connections} connections`, fmtNumber(server.rate.requestsPerSecond)],
        ],
      ),
    );
  }
  if (result.load) {
    parts.push('', `## Under load (${result.load.connections} connections, ${result.load.seconds} s each)`, '');
    parts.push(markdownTable(LOAD_HEADER, loadRows(result.load)));
  }
  parts.push('', '## Budgets', '');
  parts.push(
    markdownTable(
      ['budget', 'measured', 'limit', ''],
      result.budgets.map((b) => [b.name, b.value, b.limit, b.met ? 'met' : '**missed**']),
    ),
  );
  return `${parts.join('\n')}\n`;
}

module.exports = {
  JS_OVERHEAD_FLOOR,
  median,
  summarizeVisits,
  summarizeLighthouse,
  evaluateBudgets,
  ratioInterval,
  renderText,
  renderMarkdown,
  textTable,
};

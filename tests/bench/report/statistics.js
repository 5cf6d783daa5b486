// The statistics of `npm run bench`: medians of runs, ratios of medians and how far they could move.

/** @typedef {import('../measure').Visit} Visit */
/** @typedef {import('../measure').Paint} Paint */
/** @typedef {import('../lighthouse').LighthouseRun} LighthouseRun */
/** @typedef {import('./serverCost').Load} Load */
/** @typedef {ReturnType<typeof summarizeVisits>} VisitSummary */
/** @typedef {NonNullable<ReturnType<typeof summarizeLighthouse>>} LighthouseSummary */

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
    'jsBeforeLcpBytes',
    'fieldDataJsBytes',
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
 * The loads a build's LCP was measured on: its paint loads, or its instrumented runs without any.
 * @typedef {{ runs?: { lcp: number | null }[], paints?: { lcp: number | null }[] }} LcpLoads
 */

/**
 * The 90 % interval of a route's composed/pre-rendered LCP ratio, from its loopback loads.
 * @param {{ composed: LcpLoads, prerendered?: LcpLoads | null }} route
 */
function prerenderedLcpInterval(route) {
  const loads = (/** @type {LcpLoads} */ summary) => (summary.paints?.length ? summary.paints : (summary.runs ?? []));
  if (!route.prerendered?.runs) return null;
  // The paint loads are made in rounds, one load of each build per round: paired. The instrumented runs too.
  return ratioInterval(
    loads(route.composed).map((run) => run.lcp),
    loads(route.prerendered).map((run) => run.lcp),
    { paired: true },
  );
}

/**
 * One target's load figures over the rounds: the median of each, failures summed, and its requests/s as a ratio of
 * the static file's in the same round (the median of the rounds' ratios).
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
    cpuUs: pick((load) => load.cpuUs ?? Number.NaN),
    failures: rounds.reduce((sum, load) => sum + load.errors + load.non2xx, 0),
  };
}

module.exports = {
  median,
  ratio,
  ratioInterval,
  summarizeVisits,
  summarizeLighthouse,
  prerenderedLcpInterval,
  overRounds,
};

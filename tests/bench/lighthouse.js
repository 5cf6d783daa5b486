// Lighthouse's performance category with its default (mobile) settings: a mid-range phone on a slow 4G connection,
// simulated (Lantern) from a trace of the real load. Run programmatically against the same Chromium as the bench.

/**
 * How the bench starts Debian's Chromium, for Playwright and for Lighthouse alike, so that their runs compare: no
 * sandbox (CI runs as root), no GPU, and none of the browser's own background traffic (updates, first-run pages).
 */
const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/**
 * One run's numbers: the performance score (0-100), and the metrics in milliseconds (CLS without a unit), null for
 * an audit that did not run.
 * @typedef {object} LighthouseRun
 * @property {number} score
 * @property {number | null} fcp
 * @property {number | null} lcp
 * @property {number | null} tbt
 * @property {number | null} cls
 * @property {number | null} si  speed index
 * @property {number | null} [benchmarkIndex]  Lighthouse's score of this machine's CPU in that run: TBT is the
 *   start-up's tasks times 4, so it moves with the machine's speed
 * @property {number | null} [longestTask]  the longest main-thread task between the first paint and the page's
 *   interactive time, simulated, as TBT counts it (see longestTaskAfterFirstPaint)
 * @property {string[]} warnings
 */

/**
 * The longest main-thread task Lighthouse lists (its long-tasks audit: tasks of 50 ms and more, in simulated time),
 * counting only its part between the first paint and the page's interactive time, as TBT counts it: how long the
 * start-up held a visitor's input at once. 0 when there is none; null when an audit did not run.
 * @param {import('lighthouse').Result} lhr
 */
function longestTaskAfterFirstPaint(lhr) {
  const firstPaint = lhr.audits['first-contentful-paint']?.numericValue;
  const interactive = lhr.audits.interactive?.numericValue;
  const details = lhr.audits['long-tasks']?.details;
  if (firstPaint === undefined || interactive === undefined || details?.type !== 'table') return null;
  const tasks = /** @type {{ startTime?: number, duration?: number }[]} */ (details.items);
  return Math.max(
    0,
    ...tasks.map(
      ({ startTime = 0, duration = 0 }) =>
        Math.min(startTime + duration, interactive) - Math.max(startTime, firstPaint),
    ),
  );
}

/**
 * Flags for the Chromium Lighthouse drives: the bench's own, in headless mode.
 * @param {string[]} args
 */
function chromeFlags(args) {
  return ['--headless=new', ...args];
}

/**
 * Chromium for Lighthouse to drive, with the bench's flags.
 * @param {string} chromePath
 * @param {string[]} args
 */
async function launchChrome(chromePath, args) {
  const chromeLauncher = await import('chrome-launcher');
  return chromeLauncher.launch({ chromePath, chromeFlags: chromeFlags(args) });
}

/**
 * One Lighthouse run of `url`, performance category, default (mobile) settings, in the Chromium on `port`.
 * @param {string} url
 * @param {number} port
 * @returns {Promise<import('lighthouse').Result>}
 */
async function lighthouseResult(url, port) {
  const { default: lighthouse } = await import('lighthouse');
  const result = await lighthouse(url, { port, onlyCategories: ['performance'], logLevel: 'error', output: 'json' });
  if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  return lhr;
}

/**
 * A Lighthouse run's numbers.
 * @param {import('lighthouse').Result} lhr
 * @returns {LighthouseRun}
 */
function numbersOf(lhr) {
  const audit = (/** @type {string} */ id) => lhr.audits[id]?.numericValue ?? null;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    si: audit('speed-index'),
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    longestTask: longestTaskAfterFirstPaint(lhr),
    warnings: lhr.runWarnings,
  };
}

/**
 * @param {string[]} urls
 * @param {{ chromePath: string, args: string[], runs: number, log: (line: string) => void }} options
 * @returns {Promise<Record<string, LighthouseRun[]>>} every run's numbers, by URL
 */
async function runLighthouse(urls, { chromePath, args, runs, log }) {
  const chrome = await launchChrome(chromePath, args);
  /** @type {Record<string, LighthouseRun[]>} */
  const results = {};
  try {
    for (const url of urls) {
      /** @type {LighthouseRun[]} */
      const runsOfUrl = [];
      results[url] = runsOfUrl;
      for (let run = 0; run < runs; run += 1) {
        const numbers = numbersOf(await lighthouseResult(url, chrome.port));
        const show = (/** @type {number | null} */ value, digits = 0) => value?.toFixed(digits) ?? 'n/a';
        log(
          `  lighthouse ${url} run ${run + 1}/${runs}: ${numbers.score} (LCP ${show(numbers.lcp)} ms, ` +
            `TBT ${show(numbers.tbt)} ms, longest task ${show(numbers.longestTask ?? null)} ms, ` +
            `CLS ${show(numbers.cls, 3)}; CPU benchmark ${show(numbers.benchmarkIndex ?? null)})`,
        );
        runsOfUrl.push(numbers);
      }
    }
  } finally {
    chrome.kill();
  }
  return results;
}

module.exports = { CHROME_ARGS, runLighthouse, launchChrome, lighthouseResult, numbersOf, longestTaskAfterFirstPaint };

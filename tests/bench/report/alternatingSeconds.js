// What beacons cost the documents, from one load run in which beacons are posted in every other second (odd seconds
// of the clock): each second with beacons is compared with the seconds on either side of it, which had none. On two
// cores that the load generator shares, the same load measured twice a few seconds apart differs by as much as
// ±15 %; neighbouring seconds differ far less, so a 10 % budget can be judged this way and not by separate runs.
const { median } = require('./statistics');

/**
 * What one second of the documents' load saw.
 * @typedef {{ second: number, answered: number, latencies: number[] }} Second
 *   second: the clock's second (ms since 1970 / 1000, floored); answered: responses with the expected status;
 *   latencies: their times, ms
 */

/**
 * @param {number} second
 * @returns {boolean} whether beacons are posted in that second of the clock
 */
const withBeacons = (second) => second % 2 === 1;

/**
 * @param {number[]} values
 * @returns {number} the 99th percentile (nearest rank), NaN for none
 */
function p99(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return /** @type {number} */ (sorted[Math.ceil(0.99 * sorted.length) - 1]);
}

/**
 * @param {Second[]} seconds every whole second of the run, in order (the first and last, cut short, left out)
 * @returns {{ pairs: number, throughputRatio: number, p99With: number, p99Without: number, p99Ratio: number }}
 *   pairs: seconds with beacons that had a second without on each side; throughputRatio: the median over them of
 *   their answers over the mean of their neighbours'; p99: over all the latencies of the seconds with, and without
 */
function compareAlternatingSeconds(seconds) {
  const bySecond = new Map(seconds.map((entry) => [entry.second, entry]));
  /** @type {number[]} */
  const ratios = [];
  for (const entry of seconds) {
    if (!withBeacons(entry.second)) continue;
    const before = bySecond.get(entry.second - 1);
    const after = bySecond.get(entry.second + 1);
    if (!before || !after) continue;
    ratios.push(entry.answered / ((before.answered + after.answered) / 2));
  }
  const latencies = (/** @type {boolean} */ posted) =>
    seconds.filter((entry) => withBeacons(entry.second) === posted).flatMap((entry) => entry.latencies);
  const p99With = p99(latencies(true));
  const p99Without = p99(latencies(false));
  return {
    pairs: ratios.length,
    throughputRatio: median(ratios) ?? Number.NaN,
    p99With,
    p99Without,
    p99Ratio: p99With / p99Without,
  };
}

/** @typedef {ReturnType<typeof compareAlternatingSeconds>} AlternatingComparison */

module.exports = { compareAlternatingSeconds, withBeacons };

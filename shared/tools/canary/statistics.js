// The two tests a canary's verdict rests on (verdict.js), each one-sided: is the canary worse than its control?
// - Counts per view (errors): given the errors of both sides together, each error falls on the canary's side with the
//   canary's share of the views when both sides err alike; the p-value is that binomial's upper tail (an exact test,
//   right for the few errors a step usually has).
// - Measured values (LCP, INP, CLS): the Mann-Whitney U test, as Kayenta scores canaries: whether values drawn from
//   the canary tend to be larger than the control's, whatever the distributions' shapes (these are skewed, and one
//   slow device's values would swing a mean). Normal approximation with the correction for ties (CLS is 0 for most
//   views), which is close at the sizes a step needs (tens of values and more on each side).
const { binomialDistribution, errorFunction, wilcoxonRankSum } = require('simple-statistics');

/**
 * P(X >= k) for X ~ Binomial(n, p).
 * @param {number} k
 * @param {number} n
 * @param {number} p
 */
function binomialUpperTail(k, n, p) {
  if (k <= 0) return 1;
  if (k > n) return 0;
  // The table stops where the rest of the distribution is negligible: cells past it count as 0.
  const cells = binomialDistribution(n, p) ?? [];
  let below = 0;
  for (let x = 0; x < k && x < cells.length; x += 1) below += /** @type {number} */ (cells[x]);
  return Math.max(0, 1 - below);
}

/**
 * How likely the canary's count is, or a larger one, if it erred at the control's rate per view.
 * @param {{ count: number, views: number }} canary
 * @param {{ count: number, views: number }} control
 * @returns {number} the one-sided p-value (1 when neither side has any count)
 */
function countExcessPValue(canary, control) {
  const total = canary.count + control.count;
  if (total === 0) return 1;
  return binomialUpperTail(canary.count, total, canary.views / (canary.views + control.views));
}

/** @param {number} z */
const standardNormalUpperTail = (z) => 0.5 * (1 - errorFunction(z / Math.SQRT2));

/**
 * How likely a rank sum as large as the canary's is if both sides' values came from one distribution.
 * @param {number[]} canary
 * @param {number[]} control
 * @returns {number} the one-sided p-value (1 when a side has no value, or every value is the same)
 */
function shiftPValue(canary, control) {
  const m = canary.length;
  const n = control.length;
  if (m === 0 || n === 0) return 1;
  const u = wilcoxonRankSum(canary, control) - (m * (m + 1)) / 2;
  const all = m + n;
  // Ties shrink the variance of U by the sum of t³ - t over each group of t equal values.
  const sorted = Float64Array.from([...canary, ...control]).sort();
  let ties = 0;
  for (let start = 0; start < all;) {
    let end = start + 1;
    while (end < all && sorted[end] === sorted[start]) end += 1;
    const size = end - start;
    ties += size ** 3 - size;
    start = end;
  }
  const variance = ((m * n) / 12) * (all + 1 - ties / (all * (all - 1)));
  if (!(variance > 0)) return 1;
  // A half rank's continuity correction, towards no difference.
  return standardNormalUpperTail((u - (m * n) / 2 - 0.5) / Math.sqrt(variance));
}

module.exports = { binomialUpperTail, countExcessPValue, shiftPValue };

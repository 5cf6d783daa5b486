// How a Web Vital's value and rating read, the same in `npm run vitals` and on the status page: "1.2 s", "240 ms",
// "0.31"; "good", "NI", "poor" where a column is narrow, "needs improvement" where there is room.
const { VITALS } = require('@nativegtm/contract/fieldData');

/** @typedef {import('@nativegtm/contract/fieldData').VitalName} VitalName */
/** @typedef {import('./summary').Rating} Rating */

/** @type {Record<Rating, string>} */
const RATING_TEXT = { good: 'good', 'needs-improvement': 'needs improvement', poor: 'poor' };
/** @type {Record<Rating, string>} */
const RATING_SHORT = { good: 'good', 'needs-improvement': 'NI', poor: 'poor' };

/**
 * A value as people read it: milliseconds under a second, seconds with two decimals (one from 10 s), CLS's score
 * with two decimals.
 * @param {VitalName} name
 * @param {number} value milliseconds, or CLS's score
 */
function vitalText(name, value) {
  if (VITALS[name].unit === 'score') return value.toFixed(2);
  if (value < 999.5) return `${Math.round(value)} ms`;
  const seconds = value / 1000;
  return `${seconds < 10 ? seconds.toFixed(2).replace(/(\.\d)0$/, '$1') : seconds.toFixed(1)} s`;
}

/**
 * Errors per 1,000 views, with one decimal, or "-" when there were no views to divide by.
 * @param {number | undefined} rate
 */
const errorRateText = (rate) => (rate === undefined ? '-' : rate.toFixed(1));

module.exports = { vitalText, errorRateText, RATING_TEXT, RATING_SHORT };

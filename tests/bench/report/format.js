// How the bench's report writes its figures: kilobytes, milliseconds, ratios, intervals; `n/a` for what is missing.

const KB = 1000;

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
/** @param {{ low: number, high: number } | null} interval */
const fmtInterval = (interval) => (interval ? `${interval.low.toFixed(2)}-${interval.high.toFixed(2)}` : 'n/a');

module.exports = { KB, fmtKB, fmtMs, fmtRatio, fmtNumber, fmtInterval };

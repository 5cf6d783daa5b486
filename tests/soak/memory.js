// Whether a process's memory stayed flat over a soak: its first and last minute compared by their medians, so that a
// garbage collection in between, which moves a single sample a lot, does not decide it.

/**
 * @param {number[]} values
 * @returns {number}
 */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? /** @type {number} */ (sorted[middle])
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * The median of the first `window` samples, of the last `window`, and their ratio; undefined with too few samples to
 * have two windows.
 * @param {number[]} samples
 * @param {number} window
 */
function memoryGrowth(samples, window) {
  if (window < 1 || samples.length < 2 * window) return undefined;
  const first = median(samples.slice(0, window));
  const last = median(samples.slice(-window));
  return { first, last, ratio: last / first };
}

module.exports = { memoryGrowth, median };

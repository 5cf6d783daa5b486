// Synthetic field data for the verdict's tests: views of two sides drawn from log-normal vitals, as field LCP and
// INP are, from a seeded generator so that a test sees the same numbers on every run.

/**
 * mulberry32: a small seeded generator of uniform numbers in [0, 1).
 * @param {number} seed
 */
function seeded(seed) {
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
 * One side's views: every view has an LCP; a share of them an INP; CLS is 0 for most views.
 * @param {{ seed: number, views: number, errors?: number, lcpMs?: number, inpMs?: number, cls?: number,
 *   interactive?: number, shifted?: number }} shape
 *   lcpMs, inpMs: the medians; cls: the median layout shift of the views that have one; interactive, shifted: the
 *   shares of views with an interaction, and with a layout shift
 * @returns {import('./verdict').Side}
 */
function syntheticSide({
  seed,
  views,
  errors = 0,
  lcpMs = 1800,
  inpMs = 120,
  cls = 0.08,
  interactive = 0.6,
  shifted = 0.2,
}) {
  const random = seeded(seed);
  // Box-Muller: a standard normal value from two uniform ones.
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  /** @type {Required<import('./verdict').Side['values']>} */
  const values = { LCP: [], INP: [], CLS: [] };
  for (let view = 0; view < views; view += 1) {
    values.LCP.push(Math.round(lcpMs * Math.exp(0.45 * normal())));
    if (random() < interactive) values.INP.push(Math.round(inpMs * Math.exp(0.6 * normal())));
    values.CLS.push(random() < shifted ? Math.round(cls * Math.exp(0.5 * normal()) * 1000) / 1000 : 0);
  }
  // Every view from a network of its own: the views of real visitors, spread.
  return { views, networks: views, errors, values };
}

module.exports = { syntheticSide };

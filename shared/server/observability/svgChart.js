// A small line chart as inline SVG, drawn on the server: the status page has no script and loads nothing (its CSP
// allows neither), so a chart is markup. Presentation attributes only, no style attributes, which the page's CSP
// (a hash of its one <style>) would refuse.
const { escapeHtml } = require('@nativegtm/contract/fragments');

const WIDTH = 300;
const HEIGHT = 132;
const MARGIN = { left: 46, right: 10, top: 8, bottom: 22 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

/** The zones' fills, as the page's rating colours (statusPage.js). */
const BANDS = { good: '#e6f4ea', ni: '#fef3dc', poor: '#fce8e6' };

/**
 * @typedef {object} Series
 * @property {string} name
 * @property {(number | undefined)[]} values one per bucket; undefined where there was nothing to measure
 * @property {string} color
 * @property {boolean} [dashed]
 */

/** @param {number} value */
const round = (value) => Math.round(value * 10) / 10;

/**
 * A round number at or above `value`: 1, 2 or 5 times a power of ten.
 * @param {number} value
 */
function niceCeiling(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((step) => step * power >= value) ?? 10) * power;
}

/**
 * @param {{ label: string, series: Series[], format: (value: number) => string, xLabels: [string, string, string],
 *   thresholds?: { good: number, poor: number }, empty: string }} chart
 *   label: what it shows, for screen readers and as its title; thresholds: the good and poor bounds, drawn as zones;
 *   xLabels: under its left edge, middle and right edge; empty: the text shown when no series has a value
 * @returns {string} an <svg> element
 */
function lineChart({ label, series, format, xLabels, thresholds, empty }) {
  const values = series.flatMap((line) => line.values.filter((value) => value !== undefined));
  const buckets = Math.max(1, ...series.map((line) => line.values.length));
  const highest = Math.max(0, ...values);
  const top = thresholds ? Math.max(thresholds.poor * 1.25, highest * 1.1) : niceCeiling(Math.max(highest * 1.15, 1));
  const y = (/** @type {number} */ value) =>
    round(MARGIN.top + PLOT_HEIGHT - (Math.min(value, top) / top) * PLOT_HEIGHT);
  const x = (/** @type {number} */ index) => round(MARGIN.left + ((index + 0.5) / buckets) * PLOT_WIDTH);
  const right = MARGIN.left + PLOT_WIDTH;

  const parts = [];
  if (thresholds) {
    const zones = /** @type {const} */ ([
      ['good', 0, thresholds.good],
      ['ni', thresholds.good, thresholds.poor],
      ['poor', thresholds.poor, top],
    ]);
    for (const [zone, from, to] of zones) {
      parts.push(
        `<rect x="${MARGIN.left}" y="${y(to)}" width="${PLOT_WIDTH}" height="${round(y(from) - y(to))}" fill="${BANDS[zone]}"/>`,
      );
    }
  }
  const ticks = thresholds ? [0, thresholds.good, thresholds.poor] : [0, top / 2, top];
  for (const tick of ticks) {
    parts.push(
      `<line x1="${MARGIN.left}" x2="${right}" y1="${y(tick)}" y2="${y(tick)}" stroke="${tick === 0 ? '#9aa0a6' : '#dadce0'}" stroke-width="1"/>`,
      `<text x="${MARGIN.left - 5}" y="${y(tick) + 3.5}" text-anchor="end" font-size="10" fill="#5f6368">${escapeHtml(format(tick))}</text>`,
    );
  }
  const [first, middle, last] = xLabels;
  parts.push(
    `<text x="${MARGIN.left}" y="${HEIGHT - 6}" font-size="10" fill="#5f6368">${escapeHtml(first)}</text>`,
    `<text x="${round(MARGIN.left + PLOT_WIDTH / 2)}" y="${HEIGHT - 6}" text-anchor="middle" font-size="10" fill="#5f6368">${escapeHtml(middle)}</text>`,
    `<text x="${right}" y="${HEIGHT - 6}" text-anchor="end" font-size="10" fill="#5f6368">${escapeHtml(last)}</text>`,
  );

  if (values.length === 0) {
    parts.push(
      `<text x="${round(MARGIN.left + PLOT_WIDTH / 2)}" y="${round(MARGIN.top + PLOT_HEIGHT / 2 + 4)}" text-anchor="middle" font-size="11" fill="#5f6368">${escapeHtml(empty)}</text>`,
    );
  }
  for (const line of series) {
    // A line joins buckets next to each other; a bucket without a value breaks it.
    let path = '';
    line.values.forEach((value, index) => {
      if (value === undefined) return;
      path += `${line.values[index - 1] === undefined ? 'M' : 'L'}${x(index)},${y(value)}`;
    });
    const dash = line.dashed ? ' stroke-dasharray="5 3"' : '';
    if (path) {
      parts.push(`<path d="${path}" fill="none" stroke="${line.color}" stroke-width="2"${dash}/>`);
    }
    line.values.forEach((value, index) => {
      if (value === undefined) return;
      parts.push(
        `<circle cx="${x(index)}" cy="${y(value)}" r="2.5" fill="${line.dashed ? '#fff' : line.color}" stroke="${line.color}" stroke-width="1.5"><title>${escapeHtml(`${line.name}: ${format(value)}`)}</title></circle>`,
      );
    });
  }
  return (
    `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(label)}" xmlns="http://www.w3.org/2000/svg">` +
    `<title>${escapeHtml(label)}</title>${parts.join('')}</svg>`
  );
}

module.exports = { lineChart };

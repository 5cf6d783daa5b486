const { lineChart } = require('./svgChart');

const base = {
  label: 'LCP p75 per 5 minutes',
  format: (/** @type {number} */ value) => `${value} ms`,
  xLabels: /** @type {[string, string, string]} */ (['09:00', '09:30', '10:00']),
  empty: 'no values in the last hour',
};

describe('lineChart', () => {
  it('draws each series as lines between neighbouring buckets, broken where a bucket has no value', () => {
    const svg = lineChart({
      ...base,
      series: [{ name: 'live', values: [100, 200, undefined, 300], color: '#00f' }],
      thresholds: { good: 2500, poor: 4000 },
    });
    const [path] = /<path d="([^"]+)"/.exec(svg)?.slice(1) ?? [];
    expect(path?.match(/[ML]/g)).toEqual(['M', 'L', 'M']);
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg).toContain('<title>live: 300 ms</title>');
    // The zones of web.dev's thresholds, and their values on the axis.
    expect(svg.match(/<rect /g)).toHaveLength(3);
    expect(svg).toContain('>2500 ms</text>');
    expect(svg).toContain('>4000 ms</text>');
    expect(svg).not.toContain(base.empty);
  });

  it('says there is nothing to draw, and is an image with a name for screen readers', () => {
    const svg = lineChart({ ...base, series: [{ name: 'live', values: [undefined, undefined], color: '#00f' }] });
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-label="LCP p75 per 5 minutes"/);
    expect(svg).toContain(`>${base.empty}</text>`);
    expect(svg).not.toContain('<path');
  });

  it('rounds its scale up to 1, 2 or 5 times a power of ten without thresholds', () => {
    const svg = lineChart({ ...base, series: [{ name: 'live', values: [37], color: '#00f' }] });
    expect(svg).toContain('>50 ms</text>');
    expect(svg).toContain('>25 ms</text>');
  });

  it('escapes what it is given', () => {
    const svg = lineChart({ ...base, label: '<b>&', series: [] });
    expect(svg).toContain('aria-label="&lt;b&gt;&amp;"');
  });
});

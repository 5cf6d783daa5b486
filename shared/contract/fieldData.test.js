const { deviceClass, parseBeacon, rating, MAX_TARGET_LENGTH } = require('./fieldData');

const view = {
  seq: 0,
  route: '/featured-jobs',
  remote: 'jobs',
  build: 'b1a6a8730b',
  nav: 'document',
  device: 'desktop',
};
const token = `0123456789abcdef.1790000000.preview.0123456789abcdef.-.${'A'.repeat(43)}`;

describe('rating', () => {
  it("follows web.dev's thresholds, good and needs-improvement inclusive", () => {
    expect([2500, 2501, 4000, 4001].map((value) => rating('LCP', value))).toEqual([
      'good',
      'needs-improvement',
      'needs-improvement',
      'poor',
    ]);
    expect(rating('INP', 200)).toBe('good');
    expect(rating('INP', 501)).toBe('poor');
    expect(rating('CLS', 0.1)).toBe('good');
    expect(rating('CLS', 0.2)).toBe('needs-improvement');
    expect(rating('FCP', 3001)).toBe('poor');
    expect(rating('TTFB', 800)).toBe('good');
  });
});

describe('deviceClass', () => {
  it('splits phones, tablets and desktops at 768 and 1024 CSS pixels', () => {
    expect([375, 767, 768, 1023, 1024, 1280].map(deviceClass)).toEqual([
      'mobile',
      'mobile',
      'tablet',
      'tablet',
      'desktop',
      'desktop',
    ]);
  });
});

describe('parseBeacon', () => {
  it('keeps a well-formed beacon as it is', () => {
    const beacon = {
      v: 1,
      token,
      first: true,
      view,
      vitals: [
        { name: 'LCP', value: 5120.5, target: 'main > h1', targetRemote: 'jobs' },
        { name: 'CLS', value: 0.01 },
      ],
      errors: [
        { source: 'error', remote: 'jobs', build: 'b1a6a8730b' },
        { source: 'rejection', remote: 'shell' },
      ],
    };
    expect(parseBeacon(JSON.stringify(beacon))).toEqual(beacon);
  });

  it('drops unknown fields, and records that are not measurements one by one', () => {
    const beacon = parseBeacon(
      JSON.stringify({
        v: 1,
        first: true,
        extra: 'x',
        view: { ...view, userAgent: 'Mozilla/5.0', ip: '10.0.0.1' },
        vitals: [
          { name: 'LCP', value: -1 },
          { name: 'INP', value: 1e12 },
          { name: 'TBT', value: 10 },
          { name: 'FCP', value: '900' },
          { name: 'TTFB', value: 120, target: 'html', targetRemote: 'jobs' },
          { name: 'TTFB', value: 99999 },
        ],
        errors: [
          { source: 'error', remote: '<script>' },
          { source: 'crash', remote: 'jobs' },
          { source: 'error', remote: 'jobs', message: 'secret' },
        ],
      }),
    );
    expect(beacon).toEqual({
      v: 1,
      first: true,
      view,
      // A target is kept for LCP, INP and CLS only; a second TTFB is not a second measurement.
      vitals: [{ name: 'TTFB', value: 120 }],
      errors: [{ source: 'error', remote: 'jobs' }],
    });
  });

  it('cuts a target to its length and names an unknown owner "other"', () => {
    const beacon = parseBeacon(
      JSON.stringify({
        v: 1,
        first: false,
        view,
        vitals: [{ name: 'CLS', value: 0.4, target: `div${'.a'.repeat(200)}\n`, targetRemote: '../../x y' }],
        errors: [],
      }),
    );
    expect(beacon?.vitals[0]?.target).toHaveLength(MAX_TARGET_LENGTH);
    expect(beacon?.vitals[0]?.targetRemote).toBe('other');
  });

  it('refuses what is not a beacon: not JSON, another version, no valid view', () => {
    for (const text of [
      '',
      'null',
      '[]',
      '{"v":1}',
      JSON.stringify({ v: 2, view }),
      JSON.stringify({ v: 1, view: { ...view, seq: -1 } }),
      JSON.stringify({ v: 1, view: { ...view, device: 'watch' } }),
      JSON.stringify({ v: 1, view: { ...view, route: '/a b' } }),
    ]) {
      expect(parseBeacon(text)).toBeNull();
    }
  });

  it('ignores a token that is not shaped like one', () => {
    expect(parseBeacon(JSON.stringify({ v: 1, view, token: 'forged' }))).not.toHaveProperty('token');
  });
});

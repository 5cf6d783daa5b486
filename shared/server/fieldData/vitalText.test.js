const { errorRateText, vitalText } = require('./vitalText');

describe('vitalText', () => {
  it.each([
    ['INP', 240, '240 ms'],
    ['INP', 0.4, '0 ms'],
    ['TTFB', 999.4, '999 ms'],
    ['TTFB', 999.6, '1.0 s'],
    ['LCP', 1200, '1.2 s'],
    ['LCP', 2540, '2.54 s'],
    ['LCP', 3000, '3.0 s'],
    ['LCP', 12_345, '12.3 s'],
    ['CLS', 0.3081, '0.31'],
    ['CLS', 0, '0.00'],
  ])('reads %s %d as %j', (name, value, text) => {
    expect(vitalText(/** @type {import('@nativegtm/contract/fieldData').VitalName} */ (name), value)).toBe(text);
  });

  it('reads an error rate with one decimal, or "-" without views', () => {
    expect(errorRateText(1000 / 6)).toBe('166.7');
    expect(errorRateText(0)).toBe('0.0');
    expect(errorRateText(undefined)).toBe('-');
  });
});

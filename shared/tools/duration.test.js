const { parseDuration } = require('./duration');

describe('parseDuration', () => {
  it.each([
    ['20s', 20_000],
    ['30m', 30 * 60_000],
    ['1h', 3_600_000],
    ['24h', 24 * 3_600_000],
    ['7d', 7 * 86_400_000],
  ])('reads %j', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '1', '100', '0h', '1.5h', '-1h', '1 h', '1y', '1ms', 'h', '1H', '1234567d'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

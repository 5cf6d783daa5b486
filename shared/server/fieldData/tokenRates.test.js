const { createTokenRates } = require('./tokenRates');

describe('the rate cap of signed beacons', () => {
  it('gives each token its burst, then refills it slowly', () => {
    let time = 0;
    const rates = createTokenRates({ burst: 3, perSecond: 0.5, now: () => time });
    expect(['a', 'a', 'a', 'a', 'b'].map((token) => rates.allowed(token))).toEqual([true, true, true, false, true]);
    time += 1000;
    expect(rates.allowed('a')).toBe(false);
    time += 1000;
    expect(rates.allowed('a')).toBe(true);
  });

  it('keeps at most its ceiling of tokens: one pushed out starts again with a full burst', () => {
    const rates = createTokenRates({ burst: 1, maxTokens: 2, now: () => 0 });
    expect(rates.allowed('a')).toBe(true);
    expect(rates.allowed('a')).toBe(false);
    expect(rates.allowed('b')).toBe(true);
    expect(rates.allowed('a')).toBe(false);
    expect(rates.allowed('c')).toBe(true);
    // b was the least recently used: pushed out by c.
    expect(rates.allowed('b')).toBe(true);
  });
});

const { binomialUpperTail, countExcessPValue, shiftPValue } = require('./statistics');

describe('the binomial upper tail', () => {
  it('is exact at the ends and in between', () => {
    expect(binomialUpperTail(0, 10, 0.5)).toBe(1);
    expect(binomialUpperTail(11, 10, 0.5)).toBe(0);
    expect(binomialUpperTail(10, 10, 0.5)).toBeCloseTo(1 / 1024, 10);
    // P(X >= 9) = (10 + 1) / 1024
    expect(binomialUpperTail(9, 10, 0.5)).toBeCloseTo(11 / 1024, 10);
  });
});

describe('errors per view, canary against control', () => {
  it('finds nothing when both err at the same rate', () => {
    expect(countExcessPValue({ count: 0, views: 300 }, { count: 0, views: 300 })).toBe(1);
    expect(countExcessPValue({ count: 5, views: 300 }, { count: 5, views: 300 })).toBeGreaterThan(0.3);
  });

  it('finds a canary that errs where the control does not', () => {
    // Ten errors, all on one of two equal sides: 1 in 1,024.
    expect(countExcessPValue({ count: 10, views: 200 }, { count: 0, views: 200 })).toBeCloseTo(1 / 1024, 8);
  });

  it('weighs each side by its views', () => {
    // The canary has three times the control's views: 6 errors against 2 is its share exactly.
    expect(countExcessPValue({ count: 6, views: 600 }, { count: 2, views: 200 })).toBeGreaterThan(0.3);
  });
});

describe("measured values, the canary's shifted up", () => {
  it('is unremarkable for the same values', () => {
    const values = [100, 200, 300, 400, 500, 600, 700, 800];
    expect(shiftPValue(values, values)).toBeGreaterThan(0.4);
  });

  it('is remarkable when every canary value is above every control value', () => {
    const control = Array.from({ length: 30 }, (_, index) => 100 + index);
    const canary = control.map((value) => value + 100);
    expect(shiftPValue(canary, control)).toBeLessThan(1e-6);
    // One-sided: the control above the canary is no sign against the canary.
    expect(shiftPValue(control, canary)).toBeGreaterThan(0.99);
  });

  it('counts ties, as CLS is 0 for most views', () => {
    const control = [...Array(90).fill(0), ...Array(10).fill(0.05)];
    const canary = [...Array(60).fill(0), ...Array(40).fill(0.05)];
    expect(shiftPValue(canary, control)).toBeLessThan(1e-4);
    expect(shiftPValue(control, control)).toBeGreaterThan(0.4);
  });

  it('says nothing without values, or when every value is the same', () => {
    expect(shiftPValue([], [1, 2])).toBe(1);
    expect(shiftPValue([0, 0, 0], [0, 0])).toBe(1);
  });
});

// The statistics `npm run bench` judges its budgets with (tests/bench/report.js): plain functions, no browser.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { median, ratioInterval } = require('../bench/report') as {
  median: (values: number[]) => number | null;
  ratioInterval: (
    a: number[],
    b: number[],
    options?: { level?: number; resamples?: number; seed?: number },
  ) => { low: number; high: number } | null;
};

describe('the bench report', () => {
  it('takes the median of the numbers only', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([Number.NaN, 5])).toBe(5);
    expect(median([])).toBeNull();
  });

  it('puts the ratio of two medians inside its bootstrap interval, the same one for the same runs', () => {
    const composed = [112, 116, 104, 116, 96, 96, 128, 104, 100, 132, 104, 100, 112, 104, 112];
    const reference = [92, 108, 80, 108, 108, 124, 124, 116, 92, 108, 96, 84, 116, 112, 108];
    const interval = ratioInterval(composed, reference)!;
    const point = median(composed)! / median(reference)!;
    expect(interval.low).toBeLessThanOrEqual(point);
    expect(interval.high).toBeGreaterThanOrEqual(point);
    expect(interval.high - interval.low).toBeGreaterThan(0.05); // 15 noisy loads cannot pin it down
    expect(ratioInterval(composed, reference)).toEqual(interval);
  });

  it('narrows with quieter series and has nothing to say about fewer than two runs', () => {
    const steady = Array.from({ length: 31 }, (_, i) => 100 + (i % 3));
    const interval = ratioInterval(
      steady.map((value) => value * 1.2),
      steady,
    )!;
    expect(interval.low).toBeGreaterThan(1.15);
    expect(interval.high).toBeLessThan(1.25);
    expect(ratioInterval([100], [100, 101])).toBeNull();
  });
});

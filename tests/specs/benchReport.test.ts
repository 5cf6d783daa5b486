// The statistics `npm run bench` judges its budgets with (tests/bench/report.js): plain functions, no browser.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { median, ratioInterval } = require('../bench/report') as {
  median: (values: number[]) => number | null;
  ratioInterval: (
    a: number[],
    b: number[],
    options?: { level?: number; resamples?: number; seed?: number; paired?: boolean },
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

  it('resamples paired loads by round, so a slowdown both builds saw in a round does not widen the interval', () => {
    // Every round, the machine's load moves both builds' paints alike; the composed one is always 10 % later.
    const reference = Array.from({ length: 41 }, (_, i) => 100 + ((i * 37) % 60));
    const composed = reference.map((value) => value * 1.1);
    const paired = ratioInterval(composed, reference, { paired: true })!;
    const unpaired = ratioInterval(composed, reference)!;
    expect(paired.low).toBeGreaterThan(1.05);
    expect(paired.high).toBeLessThan(1.15);
    expect(unpaired.high - unpaired.low).toBeGreaterThan(2 * (paired.high - paired.low));
    // Series of different lengths are not rounds: resampled on their own.
    expect(ratioInterval(composed, reference.slice(1), { paired: true })).toEqual(
      ratioInterval(composed, reference.slice(1)),
    );
  });
});

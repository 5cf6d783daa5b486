// The statistics `npm run bench` judges its budgets with (tests/bench/report.js): plain functions, no browser.
import { evaluateBudgets, median, ratioInterval } from '../bench/report';

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

  it('judges the server budgets for every server measured: the built-in one, and nginx when it ran', () => {
    const server = (ms: number, requestsPerSecond: number) => ({
      ttfb: { '/': ms },
      quietTtfb: { '/': ms },
      firstTtfb: { '/': 40 },
      rate: { requestsPerSecond, connections: 100, failed: 0 },
    });
    const build = { jsBytes: 100_000, lcp: 100, cls: 0, packages: {} };
    const home = { path: '/', composed: build, monolith: build };
    const serverBudgets = (result: object) =>
      evaluateBudgets({ routes: [home], navigations: [], ...result })
        .filter((budget) => /time to first byte|requests\/s/.test(budget.name))
        .map((budget) => `${budget.name}: ${budget.met ? 'met' : 'missed'}`);
    expect(serverBudgets({ server: server(0.4, 12000) })).toEqual([
      '/: time to first byte, back to back (built-in server): met',
      '/: time to first byte, one a second (built-in server): met',
      'page requests/s with 100 connections (built-in server): met',
    ]);
    // The first request is printed, not judged; a slow nginx misses its own budgets.
    expect(serverBudgets({ server: server(0.4, 12000), nginxServer: server(20, 1500) })).toEqual([
      '/: time to first byte, back to back (built-in server): met',
      '/: time to first byte, one a second (built-in server): met',
      'page requests/s with 100 connections (built-in server): met',
      '/: time to first byte, back to back (nginx): missed',
      '/: time to first byte, one a second (nginx): missed',
      'page requests/s with 100 connections (nginx): missed',
    ]);
  });
});

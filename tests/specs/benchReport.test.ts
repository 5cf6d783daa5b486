// The statistics and budgets `npm run bench` judges with (tests/bench/report/): plain functions, no browser.
import type { Result } from 'lighthouse';
import { longestTaskAfterFirstPaint } from '../bench/lighthouse';
import { evaluateBudgets, JS_OVERHEAD_FLOOR } from '../bench/report/budgets';
import { renderMarkdown } from '../bench/report/renderMarkdown';
import { renderText } from '../bench/report/renderText';
import { compareAlternatingSeconds, withBeacons } from '../bench/report/alternatingSeconds';
import { median, ratioInterval, summarizeLighthouse } from '../bench/report/statistics';

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

  it('judges the time to first byte of every server measured: the built-in one, and nginx when it ran', () => {
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
        .filter((budget) => /time to first byte/.test(budget.name))
        .map((budget) => `${budget.name}: ${budget.met ? 'met' : 'missed'}`);
    expect(serverBudgets({ server: server(0.4, 12000) })).toEqual([
      '/: time to first byte, back to back (built-in server): met',
      '/: time to first byte, one a second (built-in server): met',
    ]);
    // The first request is printed, not judged; a slow nginx misses its own budgets.
    expect(serverBudgets({ server: server(0.4, 12000), nginxServer: server(20, 1500) })).toEqual([
      '/: time to first byte, back to back (built-in server): met',
      '/: time to first byte, one a second (built-in server): met',
      '/: time to first byte, back to back (nginx): missed',
      '/: time to first byte, one a second (nginx): missed',
    ]);
  });

  it('judges the load figures as ratios of the static file measured in the same run, and any failure', () => {
    const figures = (requestsPerSecond: number, p99 = 10, errors = 0) => ({
      requestsPerSecond,
      p50: 5,
      p99,
      errors,
      non2xx: 0,
    });
    const load = (nginx: number, builtIn: number, p99 = 10, errors = 0) => ({
      connections: 100,
      seconds: 8,
      documentBytes: 15_000,
      staticFile: { path: '/a.0123456789.js', bytes: 15_300 },
      // Three rounds; the machine was twice as busy in the second, which moved every target alike.
      static: [figures(10_000, 8), figures(5_000, 20), figures(10_000, 8)],
      nginx: [figures(nginx, p99), figures(nginx / 2, 99), figures(nginx, p99)],
      builtIn: [figures(builtIn, 10, errors), figures(builtIn / 2), figures(builtIn)],
    });
    const judged = (result: object) =>
      evaluateBudgets({ routes: [], navigations: [], ...result })
        .filter((budget) => /documents|static file/.test(budget.name))
        .map((budget) => `${budget.name}: ${budget.value} ${budget.met ? 'met' : 'missed'}`);
    // Without nginx, no load figure and no load budget.
    expect(judged({})).toEqual([]);
    // The static file's p99 is the median of its rounds' (8 ms): nginx's may be 2 ms more.
    expect(judged({ load: load(9000, 6000) })).toEqual([
      'documents/static file requests/s, nginx, 100 connections: 0.90 met',
      'documents p99, nginx, 100 connections: 10 ms met',
      'documents (npm start)/static file (nginx) requests/s, 100 connections: 0.60 met',
      'errors and non-2xx answers, static file (nginx): 0 met',
      'errors and non-2xx answers, documents (nginx): 0 met',
      'errors and non-2xx answers, documents (npm start): 0 met',
    ]);
    expect(judged({ load: load(8999, 5990, 11, 1) })).toEqual([
      'documents/static file requests/s, nginx, 100 connections: 0.90 missed',
      'documents p99, nginx, 100 connections: 11 ms missed',
      'documents (npm start)/static file (nginx) requests/s, 100 connections: 0.60 missed',
      'errors and non-2xx answers, static file (nginx): 0 met',
      'errors and non-2xx answers, documents (nginx): 0 met',
      'errors and non-2xx answers, documents (npm start): 1 missed',
    ]);
  });

  it('judges field data by the seconds with beacons against those without, and every record posted and taken', () => {
    const server = (throughputRatio: number, p99With: number, accepted = 6000, refused = 0) => ({
      pairs: 14,
      throughputRatio,
      p99With,
      p99Without: 30,
      p99Ratio: p99With / 30,
      requestsPerSecond: 8000,
      seconds: 30,
      errors: 0,
      non2xx: 0,
      beacons: { accepted, refused, failed: 0, due: 6000, perSecond: 400, recordsPerBeacon: 5 },
    });
    const load = (nginx: ReturnType<typeof server>, builtIn: ReturnType<typeof server>) => ({
      connections: 100,
      seconds: 4,
      documentBytes: 15_000,
      staticFile: { path: '/a.0123456789.js', bytes: 15_300 },
      static: [],
      nginx: [],
      builtIn: [],
      beacons: { nginx, builtIn },
    });
    const judged = (result: object) =>
      evaluateBudgets({ routes: [], navigations: [], ...result })
        .filter((budget) => /field data|field-data|2,000 records/.test(budget.name))
        .filter((budget) => !budget.met)
        .map((budget) => `${budget.name}: ${budget.value}`);
    expect(judged({ load: load(server(0.95, 32), server(0.91, 33)) })).toEqual([]);
    expect(judged({ load: load(server(0.89, 32), server(0.95, 34, 5000, 12)) })).toEqual([
      'documents with 2,000 records/s / without, requests/s, nginx, 100 connections (14 pairs of seconds): 0.89',
      'documents with 2,000 records/s / without, p99, npm start, 100 connections (34 / 30 ms): 1.13',
      'field-data records refused or failed, npm start: 60 of 25060',
      'field-data records accepted of those due at 2,000 a second, npm start: 25000 of 30000',
    ]);
  });

  it("lets each route's JavaScript overhead over the monolith grow 2 KB over its measured floor, no more", () => {
    const route = (path: string, overhead: number) => ({
      path,
      composed: { jsBytes: 100_000 + overhead, lcp: 100, cls: 0, packages: {} },
      monolith: { jsBytes: 100_000, lcp: 200, cls: 0, packages: {} },
    });
    const judged = (overhead: number) =>
      evaluateBudgets({ routes: [route('/employers', overhead)], navigations: [] }).find((budget) =>
        budget.name.includes('JS composed minus monolith'),
      )!;
    const floor = JS_OVERHEAD_FLOOR['/employers']!;
    expect(judged(floor + 2000).met).toBe(true);
    expect(judged(floor + 2001).met).toBe(false);
    expect(judged(floor + 2001).limit).toContain('floor');
    // A route with no measured floor cannot meet it.
    expect(
      evaluateBudgets({ routes: [route('/new-page', 0)], navigations: [] }).find((budget) =>
        budget.name.includes('JS composed minus monolith'),
      )!.met,
    ).toBe(false);
  });

  describe("Lighthouse against the React floor's runs in the same run", () => {
    /** Three Lighthouse runs with these scores and TBTs, the rest alike. */
    const runs = (scores: number[], tbts: number[]) =>
      summarizeLighthouse(
        scores.map((score, index) => ({ score, fcp: 900, lcp: 950, tbt: tbts[index]!, cls: 0, si: 950, warnings: [] })),
      )!;
    // The floor's medians: score 100, TBT 74 ms; a route may score 97 and block for 174 ms.
    const floor = runs([97, 100, 100], [204, 74, 60]);
    const build = { jsBytes: 100_000, lcp: 100, cls: 0, packages: {} };
    const judged = (route: ReturnType<typeof runs>, reactFloor: ReturnType<typeof runs> | null) =>
      evaluateBudgets({
        routes: [{ path: '/', composed: build, monolith: build, lighthouse: { composed: route } }],
        navigations: [],
        reactFloor,
      }).filter((budget) => budget.name.includes('against the React floor'));
    const verdicts = (budgets: ReturnType<typeof judged>) =>
      budgets.map((budget) => `${budget.name}: ${budget.value} ${budget.met}`);

    it("passes a route whose median score is at most 3 under the floor's and median TBT at most 100 ms over", () => {
      // Medians of each route's runs, at the limits: 97 and 174 ms.
      expect(verdicts(judged(runs([96, 100, 97], [300, 60, 174]), floor))).toEqual([
        '/: Lighthouse mobile performance, against the React floor: 97 true',
        '/: Lighthouse TBT, against the React floor: 174 ms true',
      ]);
    });

    it('fails a route by its score alone', () => {
      expect(verdicts(judged(runs([94, 96, 100], [50, 60, 70]), floor))).toEqual([
        '/: Lighthouse mobile performance, against the React floor: 96 false',
        '/: Lighthouse TBT, against the React floor: 60 ms true',
      ]);
    });

    it('fails a route by its TBT alone', () => {
      const [score, tbt] = judged(runs([100, 98, 99], [150, 175, 300]), floor);
      expect([score!.met, tbt!.met]).toEqual([true, false]);
      expect(tbt!.limit).toBe("<= 174 ms, the floor's 74 ms + 100 ms");
    });

    it('judges neither without the floor, and says so in both reports', () => {
      const budgets = judged(runs([100, 100, 100], [0, 0, 0]), null);
      expect(budgets.map((budget) => budget.met)).toEqual([null, null]);
      expect(budgets.every((budget) => budget.limit.includes('not judged: the React floor was not measured'))).toBe(
        true,
      );
      const report = {
        date: '2026-11-25T00:00:00.000Z',
        environment: { node: 'v20.9.0', chromium: 'Chromium', cpus: 2 },
        settings: { runs: 1, lighthouseRuns: 3 },
        server: { ttfb: {}, rate: { requestsPerSecond: 1, connections: 100, failed: 0 } },
        routes: [],
        navigations: [],
        budgets,
      };
      expect(renderText(report)).toContain('NOT JUDGED /: Lighthouse TBT, against the React floor: 0 ms');
      expect(renderMarkdown(report)).toContain('| not judged |');
    });
  });

  describe('the longest task of a Lighthouse run', () => {
    /** A Lighthouse result with only what the function reads: first paint, interactive and the long tasks. */
    const run = (tasks: { startTime: number; duration: number }[] | null) =>
      ({
        audits: {
          'first-contentful-paint': { numericValue: 900 },
          interactive: { numericValue: 2000 },
          'long-tasks': tasks ? { details: { type: 'table', headings: [], items: tasks } } : {},
        },
      }) as unknown as Result;

    it('counts a task only for its part between the first paint and interactive, as TBT does', () => {
      expect(
        longestTaskAfterFirstPaint(
          run([
            { startTime: 600, duration: 340 }, // the document's first layout: 40 ms of it after the first paint
            { startTime: 1200, duration: 90 },
            { startTime: 1960, duration: 120 }, // 40 ms of it before interactive
          ]),
        ),
      ).toBe(90);
    });

    it('is 0 when no task of 50 ms or more runs after the first paint, and unknown when the audit did not run', () => {
      expect(longestTaskAfterFirstPaint(run([{ startTime: 500, duration: 300 }]))).toBe(0);
      expect(longestTaskAfterFirstPaint(run([]))).toBe(0);
      expect(longestTaskAfterFirstPaint(run(null))).toBeNull();
    });
  });
});

describe('the field-data load, from seconds with and without beacons', () => {
  /** Seconds from 1,000 on (even: without beacons), answered and latencies each from a function of the second. */
  const run = (answered: (second: number) => number, latency: (second: number) => number) =>
    Array.from({ length: 21 }, (_, index) => {
      const second = 1000 + index;
      return { second, answered: answered(second), latencies: Array.from({ length: 100 }, () => latency(second)) };
    });

  it('compares each second with beacons to the mean of its two neighbours, then takes the median', () => {
    // A machine getting faster by 100 requests a second, and 10 % slower in each second with beacons.
    const seconds = run(
      (second) => (5000 + (second - 1000) * 100) * (withBeacons(second) ? 0.9 : 1),
      () => 10,
    );
    const comparison = compareAlternatingSeconds(seconds);
    expect(comparison.pairs).toBe(10);
    expect(comparison.throughputRatio).toBeCloseTo(0.9, 6);
  });

  it('takes p99 over all the latencies of each side', () => {
    const seconds = run(
      () => 5000,
      (second) => (withBeacons(second) ? 33 : 30),
    );
    seconds[4]!.latencies[0] = 500; // one stall in one second without beacons: under its side's 1 %
    const comparison = compareAlternatingSeconds(seconds);
    expect(comparison).toMatchObject({ throughputRatio: 1, p99With: 33, p99Without: 30 });
    expect(comparison.p99Ratio).toBeCloseTo(1.1, 6);
  });

  it('needs a second without beacons on each side of one with them', () => {
    const seconds = run(
      () => 5000,
      () => 10,
    ).filter((entry) => entry.second !== 1002);
    // 1001 and 1003 lose a neighbour: eight pairs are left of ten.
    expect(compareAlternatingSeconds(seconds).pairs).toBe(8);
    expect(compareAlternatingSeconds([]).pairs).toBe(0);
    expect(compareAlternatingSeconds([]).throughputRatio).toBeNaN();
  });
});

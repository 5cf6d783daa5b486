// The verdicts `npm run bench:compare` gives (tests/bench/compare/report.js): plain functions, no server.
import { comparisonReport } from '../bench/compare/report';

type Sample = { round: number; commit: string; metric: string; value: number | null };

/** One metric's samples, round by round: [the other commit's, this checkout's]. */
const rounds = (metric: string, pairs: [number, number][]): Sample[] =>
  pairs.flatMap(([theirs, mine], round) => [
    { round, commit: 'old', metric, value: theirs },
    { round, commit: 'new', metric, value: mine },
  ]);

const verdictOf = (samples: Sample[], metric: string) =>
  comparisonReport(samples, { against: 'old', current: 'new', quick: false }).verdicts.find(
    (verdict) => verdict.metric === metric,
  )!;

describe("bench:compare's verdicts", () => {
  it('judges the median of the rounds own ratios, not the ratio of the medians', () => {
    // The machine slows down half-way: each round's ratio is 0.96, the ratio of the two medians is not.
    const samples = rounds('built-in documents/s', [
      [10_000, 9_600],
      [10_000, 9_600],
      [5_000, 4_800],
      [5_000, 4_800],
      [12_000, 11_520],
    ]);
    const verdict = verdictOf(samples, 'built-in documents/s');
    expect(verdict.ratio).toBeCloseTo(0.96, 5);
    expect(verdict.ok).toBe(true);
    expect(
      verdictOf(
        rounds('nginx documents/s', [
          [100, 94],
          [100, 93],
          [100, 96],
        ]),
        'nginx documents/s',
      ).ok,
    ).toBe(false);
  });

  it('holds nginx p99 to 1.1 times, Lighthouse to the other minus 2, TBT to its plus 50 ms, navigation to 100 ms', () => {
    expect(
      verdictOf(
        rounds('nginx p99 ms', [
          [20, 22],
          [20, 21],
        ]),
        'nginx p99 ms',
      ).ok,
    ).toBe(true);
    expect(
      verdictOf(
        rounds('nginx p99 ms', [
          [20, 24],
          [20, 23],
        ]),
        'nginx p99 ms',
      ).ok,
    ).toBe(false);
    expect(
      verdictOf(
        rounds('Lighthouse /', [
          [99, 97],
          [98, 96],
        ]),
        'Lighthouse /',
      ).ok,
    ).toBe(true);
    expect(
      verdictOf(
        rounds('Lighthouse /', [
          [99, 96],
          [99, 96],
        ]),
        'Lighthouse /',
      ).ok,
    ).toBe(false);
    expect(
      verdictOf(
        rounds('TBT / ms', [
          [100, 160],
          [100, 140],
        ]),
        'TBT / ms',
      ).ok,
    ).toBe(true);
    expect(
      verdictOf(
        rounds('TBT / ms', [
          [100, 170],
          [100, 160],
        ]),
        'TBT / ms',
      ).ok,
    ).toBe(false);
    const navigation = 'navigation / → /employers ms';
    expect(verdictOf(rounds(navigation, [[300, 80]]), navigation).ok).toBe(true);
    expect(verdictOf(rounds(navigation, [[30, 120]]), navigation).ok).toBe(false);
  });

  it("leaves a canary visitor's documents and unbudgeted figures unjudged", () => {
    const samples = [
      ...rounds('built-in documents/s (canary visitor)', [[10_000, 5_000]]),
      ...rounds('nginx p99 ms (canary visitor)', [[10, 50]]),
      ...rounds('JS before LCP / bytes', [[653, 653]]),
    ];
    for (const metric of new Set(samples.map((sample) => sample.metric))) {
      expect(verdictOf(samples, metric).ok).toBeUndefined();
    }
  });
});

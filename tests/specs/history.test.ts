import { checkHistory, healthyTime, historyReport, CONVERGE_MS } from '../support/history';

// The many-nodes history checker (support/history.js): each invariant it holds a history to must fail on a history
// that breaks it, and pass the same history without the break.

const T = Date.UTC(2026, 11, 6, 9, 0);
const sample = (node: string, ms: number, revision?: number) => ({
  node,
  at: T + ms,
  revision: revision === undefined ? undefined : BigInt(revision),
});
const commit = (ms: number, revision: number) => ({
  at: T + ms,
  revision: BigInt(revision),
  action: `promote ${revision}`,
});
/** Samples every 100 ms from `from` to `to`, at `revision` until `at`, `next` from then. */
const samples = (node: string, from: number, to: number, change: (ms: number) => number) =>
  Array.from({ length: (to - from) / 100 + 1 }, (_, index) =>
    sample(node, from + index * 100, change(from + index * 100)),
  );

describe('checkHistory', () => {
  it('passes nodes that have each commit within a second, and says how long they took', () => {
    const history = {
      commits: [commit(1000, 2)],
      faults: [],
      samples: [
        ...samples('a', 0, 3000, (ms) => (ms < 1200 ? 1 : 2)),
        ...samples('b', 0, 3000, (ms) => (ms < 1900 ? 1 : 2)),
      ],
    };
    expect(checkHistory(history)).toMatchObject({ problems: [], worstMs: { a: 200, b: 900 }, unseen: 0 });
  });

  it('names a node that went back to an older revision', () => {
    const history = { commits: [], faults: [], samples: [sample('a', 0, 3), sample('a', 100, 2), sample('a', 200)] };
    expect(checkHistory(history).problems).toEqual([
      `a went back from revision 3 to 2 at ${new Date(T + 100).toISOString()}`,
    ]);
  });

  it('names a node that took longer than the bound, and one that never had the commit', () => {
    const history = {
      commits: [commit(1000, 2)],
      faults: [],
      samples: [...samples('slow', 0, 4000, (ms) => (ms < 2500 ? 1 : 2)), ...samples('never', 0, 4000, () => 1)],
    };
    expect(checkHistory(history).problems).toEqual([
      expect.stringMatching(/^slow had revision 2 .* 1500 ms into its healthy time, past 1000 ms$/),
      expect.stringMatching(/^never never had revision 2 /),
    ]);
  });

  it('does not count the time the database or the node was down, paused or cut off', () => {
    const history = {
      commits: [commit(1000, 2)],
      faults: [
        { kind: 'database paused', from: T + 1100, to: T + 3000 },
        { kind: 'node paused', node: 'a', from: T + 3000, to: T + 5000 },
      ],
      samples: [
        ...samples('a', 0, 6000, (ms) => (ms < 5600 ? 1 : 2)),
        ...samples('b', 0, 6000, (ms) => (ms < 3300 ? 1 : 2)),
      ],
    };
    // a: 100 ms before the database paused, 600 after its own pause; b: 100 before, 300 after the database's.
    expect(checkHistory(history)).toMatchObject({ problems: [], worstMs: { a: 700, b: 400 }, unseen: 0 });
    // Without the faults, both are late.
    expect(checkHistory({ ...history, faults: [] }).problems).toHaveLength(2);
  });

  it('holds a node killed for good to the commits before its kill only, and one not yet due to nothing', () => {
    const history = {
      commits: [commit(1000, 2), commit(3000, 3), commit(5900, 4)],
      faults: [{ kind: 'node killed', node: 'a', from: T + 2000, to: Infinity }],
      samples: [
        ...samples('a', 0, 6000, (ms) => (ms < 1500 ? 1 : 2)),
        ...samples('b', 0, 6000, (ms) => (ms < 1500 ? 1 : ms < 3500 ? 2 : 3)),
      ],
    };
    expect(checkHistory(history)).toMatchObject({ problems: [], worstMs: { a: 500, b: 500 }, unseen: 3 });
  });

  it('gives a release the time its files take to download', () => {
    const release = { at: T + 1000, revision: 2n, action: 'release jobs 0123456789abcdef' };
    const history = { commits: [release], faults: [], samples: samples('a', 0, 9000, (ms) => (ms < 4000 ? 1 : 2)) };
    expect(checkHistory(history)).toMatchObject({ problems: [], worstMs: { a: 0 }, worstReleaseMs: { a: 3000 } });
    expect(checkHistory({ ...history, samples: samples('a', 0, 9000, (ms) => (ms < 7000 ? 1 : 2)) }).problems).toEqual([
      expect.stringMatching(/^a had revision 2 \(release jobs .* 6000 ms into its healthy time, past 5000 ms$/),
    ]);
  });

  it('judges no commit made before the history began', () => {
    const history = { commits: [commit(0, 2)], faults: [], samples: samples('a', 5000, 6000, () => 2) };
    expect(checkHistory(history)).toMatchObject({ problems: [], worstMs: { a: 0 }, unseen: 0 });
  });

  it("names a node whose copy had a canary's lease go back: a write after the lease was lost", () => {
    const leased = (ms: number, id: string, epoch: number, startedAt = 'first') => ({
      ...sample('a', ms, 2),
      leases: { jobs: { id, startedAt, epoch } },
    });
    // A take-over (epoch 1 to 2), then new canaries (another release, the same one again) at epoch 1: no problem.
    const kept = [
      leased(0, 'r1', 1),
      leased(100, 'r1', 2),
      sample('a', 200, 2),
      leased(300, 'r2', 1),
      leased(400, 'r1', 1, 'again'),
    ];
    expect(checkHistory({ commits: [], faults: [], samples: kept }).problems).toEqual([]);
    // The command taken over wrote after its take-over.
    const lost = [leased(0, 'r1', 1), leased(100, 'r1', 2), leased(200, 'r1', 1)];
    expect(checkHistory({ commits: [], faults: [], samples: lost }).problems).toEqual([
      `a had jobs's canary of r1 go back from lease 2 to 1 at ${new Date(T + 200).toISOString()}: a write after its ` +
        'lease was lost',
    ]);
  });

  it('counts a sample without a copy as no revision, never as going back', () => {
    const history = { commits: [], faults: [], samples: [sample('a', 0, 2), sample('a', 100), sample('a', 200, 2)] };
    expect(checkHistory(history).problems).toEqual([]);
  });
});

describe('healthyTime', () => {
  it('takes the union of overlapping faults out once', () => {
    const faults = [
      { kind: 'x', from: 100, to: 300 },
      { kind: 'y', node: 'a', from: 200, to: 400 },
      { kind: 'z', node: 'b', from: 0, to: 1000 },
    ];
    expect(healthyTime(faults, 'a', 0, 1000)).toBe(700);
  });
});

it('reports the faults, the changes and the worst times', () => {
  const history = {
    commits: [commit(1000, 2)],
    faults: [{ kind: 'database killed', from: T + 500, to: T + 800 }],
    samples: samples('a', 0, 2000, (ms) => (ms < 1300 ? 1 : 2)),
  };
  expect(historyReport(history, checkHistory(history)).split('\n')).toEqual([
    '1 changes committed, 1 faults:',
    '  database killed: +0.0 s to +0.3 s',
    'worst time to a change, and to a release (its files downloaded first), not counting faults:',
    '  a 300 ms (revision 2, promote 2, at +0.5 s); a release 0 ms',
    'problems: none',
  ]);
  expect(CONVERGE_MS).toBe(1000);
});

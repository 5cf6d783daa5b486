const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRecordWriter, readRecords } = require('./recordStore');
const { signedOncePerDocument } = require('./signedRecords');
const { nearestRank, ofRemote, summarize } = require('./summary');
const { recordMaker } = require('./recordFixtures');

/** @typedef {import('./recordStore').FieldRecord} FieldRecord */

const A = 'aaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbb';
const C = 'cccccccccccccccc';
const T0 = Date.UTC(2026, 10, 26, 9, 0);

const { labelled, view, vital, error } = recordMaker({ t: T0, release: A });

/** @param {FieldRecord[]} records */
async function* asAsync(records) {
  yield* records;
}

describe('nearestRank', () => {
  it.each([
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 8], // rank ceil(7.5) = 8
    [[100, 200, 300], 300], // rank ceil(2.25) = 3
    [[1, 1, 1, 9999], 1], // rank 3: 75% of the values are at or under it
    [[42], 42],
    [[10, 20, 30, 40, 50, 60, 70, 80], 60], // rank 6
  ])('the 75th percentile of %j is %d', (values, p75) => {
    expect(nearestRank(values, 0.75)).toBe(p75);
  });
});

describe('a summary by route and release', () => {
  // Route "/" (candidates): release A, 4 views; release B, 2 views. Route "/employers" (employers): release C, 2.
  const records = [
    ...Array.from({ length: 4 }, () => view()),
    // LCP of A, sorted 1000 2000 3000 5000: rank 3 is 3000 ms, needs improvement; 2 good, 1 NI, 1 poor.
    vital('LCP', 3000),
    vital('LCP', 1000),
    { ...vital('LCP', 5000), target: 'img.hero', targetRemote: 'candidates' },
    vital('LCP', 2000),
    // INP of A, sorted 50 90 120 150 180 220 300 600: rank 6 is 220 ms, needs improvement.
    ...[600, 50, 120, 180, 220, 90, 150, 300].map((value) =>
      value === 600
        ? { ...vital('INP', value), target: 'button.apply', targetRemote: 'candidates' }
        : vital('INP', value),
    ),
    // CLS of A, sorted 0 0.05 0.3: rank 3 is 0.3, poor.
    vital('CLS', 0.05),
    { ...vital('CLS', 0.3), target: 'div.banner', targetRemote: 'shell' },
    vital('CLS', 0),
    error(),
    error({ route: '/' }),
    ...Array.from({ length: 2 }, () => view({ release: B })),
    vital('LCP', 1800, { release: B }),
    vital('LCP', 1200, { release: B }),
    // The shell threw once on "/" (6 views) and once on "/employers" (2 views).
    error({ remote: 'shell', release: 'live' }),
    error({ route: '/employers', remote: 'shell', release: 'live', page: 'employers' }),
    ...Array.from({ length: 2 }, () => view({ route: '/employers', remote: 'employers', release: C })),
  ];

  /** @type {import('./summary').Summary} */
  let summary;
  beforeAll(async () => {
    summary = await summarize(asAsync(records), { by: ['route', 'release'] });
  });

  const find = (/** @type {string} */ route, /** @type {string} */ release) =>
    summary.groups.find((group) => group.key.route === route && group.key.release === release);

  it('counts views and every record', () => {
    expect(summary.views).toBe(8);
    expect(summary.records).toBe(records.length);
    expect(summary.groups.map((group) => [group.key.route, group.key.release, group.shell])).toEqual([
      ['/', A, false],
      ['/', B, false],
      ['/', 'live', true],
      ['/employers', C, false],
      ['/employers', 'live', true],
    ]);
  });

  it('computes p75 by nearest rank, with its rating and the share of each rating', () => {
    const a = find('/', A);
    expect(a?.views).toBe(4);
    expect(a?.vitals.LCP).toEqual({
      count: 4,
      p75: 3000,
      rating: 'needs-improvement',
      shares: { good: 0.5, 'needs-improvement': 0.25, poor: 0.25 },
    });
    expect(a?.vitals.INP).toMatchObject({ count: 8, p75: 220, rating: 'needs-improvement' });
    expect(a?.vitals.INP?.shares).toEqual({ good: 5 / 8, 'needs-improvement': 2 / 8, poor: 1 / 8 });
    expect(a?.vitals.CLS).toMatchObject({ count: 3, p75: 0.3, rating: 'poor' });
    expect(a?.vitals.FCP).toBeUndefined();
    expect(find('/', B)?.vitals.LCP).toMatchObject({ count: 2, p75: 1800, rating: 'good' });
  });

  it("counts a release's errors per 1,000 of its views, and the shell's per 1,000 of all views of the route", () => {
    expect(find('/', A)).toMatchObject({ errors: 2, errorsPerThousandViews: 500 });
    expect(find('/', B)).toMatchObject({ errors: 0, errorsPerThousandViews: 0 });
    expect(find('/', 'live')).toMatchObject({ views: 0, errors: 1, errorsPerThousandViews: 1000 / 6 });
    expect(find('/employers', 'live')).toMatchObject({ errors: 1, errorsPerThousandViews: 500 });
  });

  it('lists the elements behind poor values', () => {
    expect(find('/', A)?.poorTargets).toEqual({
      LCP: [{ target: 'img.hero', targetRemote: 'candidates', count: 1 }],
      INP: [{ target: 'button.apply', targetRemote: 'candidates', count: 1 }],
      CLS: [{ target: 'div.banner', targetRemote: 'shell', count: 1 }],
    });
    expect(find('/', B)?.poorTargets).toEqual({ LCP: [], INP: [], CLS: [] });
  });
});

describe('a summary by remote and release', () => {
  it("counts the shell's errors over every view", async () => {
    const { groups } = await summarize(
      [
        view(),
        view(),
        view({ route: '/employers', remote: 'employers', release: C }),
        view({ route: '/employers', remote: 'employers', release: C }),
        error({ remote: 'shell', release: 'live' }),
        error({ route: '/employers', remote: 'employers', release: C, page: 'employers' }),
        // Thrown by a release nobody viewed: no rate to give.
        error({ remote: 'jobs', release: 'other' }),
      ],
      { by: ['remote', 'release'] },
    );
    expect(groups.map((group) => [group.key.remote, group.key.release, group.errorsPerThousandViews])).toEqual([
      ['candidates', A, 0],
      ['employers', C, 500],
      ['jobs', 'other', undefined],
      ['shell', 'live', 250],
    ]);
  });

  it('splits into time buckets from the origin, each with its own percentiles and shell rate', async () => {
    const minute = 60_000;
    const { groups } = await summarize(
      [
        view({ t: T0 + 1 * minute }),
        vital('LCP', 1000, { t: T0 + 1 * minute }),
        vital('LCP', 4500, { t: T0 + 4 * minute }),
        view({ t: T0 + 6 * minute }),
        view({ t: T0 + 7 * minute }),
        vital('LCP', 2600, { t: T0 + 9 * minute }),
        error({ remote: 'shell', release: 'live', t: T0 + 8 * minute }),
      ],
      { by: ['remote', 'release'], bucketMs: 5 * minute, origin: T0 },
    );
    expect(
      groups.map((group) => [
        group.key.remote,
        group.bucket,
        group.views,
        group.vitals.LCP?.p75,
        group.errorsPerThousandViews,
      ]),
    ).toEqual([
      ['candidates', T0, 1, 4500, 0],
      ['candidates', T0 + 5 * minute, 2, 2600, 0],
      ['shell', T0 + 5 * minute, 0, undefined, 500],
    ]);
  });
});

describe('top attribution targets', () => {
  it('lists the three most frequent elements behind poor values, with their counts, and only poor ones', async () => {
    /** @param {string} target @param {number} count */
    const poor = (target, count, value = 700) =>
      Array.from({ length: count }, () => ({ ...vital('INP', value), target, targetRemote: 'candidates' }));
    const { groups } = await summarize(
      [...poor('a', 2), ...poor('b', 5), ...poor('c', 1), ...poor('d', 2), ...poor('e', 9, 300)],
      { by: ['remote'] },
    );
    expect(groups[0]?.poorTargets.INP).toEqual([
      { target: 'b', targetRemote: 'candidates', count: 5 },
      { target: 'a', targetRemote: 'candidates', count: 2 },
      { target: 'd', targetRemote: 'candidates', count: 2 },
    ]);
  });
});

describe('filters', () => {
  it("keeps one remote's records, or signed ones once per document", async () => {
    const signed = { signed: true, doc: '0123456789abcdef', seq: 0 };
    const records = [
      view(signed),
      view(signed),
      vital('LCP', 1000, signed),
      vital('LCP', 9000, signed),
      view(),
      view({ remote: 'employers', route: '/employers', release: C }),
    ];
    const mine = await summarize(records, { by: ['remote'] }, { filter: ofRemote('candidates') });
    expect(mine.groups.map((group) => [group.key.remote, group.views])).toEqual([['candidates', 3]]);
    const keep = signedOncePerDocument();
    const decided = await summarize(records, { by: ['remote'] }, { filter: keep });
    expect(decided.views).toBe(1);
    expect(decided.groups[0]?.vitals.LCP).toMatchObject({ count: 1, p75: 1000 });
  });

  it('skips records it does not know', async () => {
    const records = /** @type {FieldRecord[]} */ (
      /** @type {unknown} */ ([
        { ...labelled(), type: 'mystery' },
        { ...vital('LCP', 1), name: 'XYZ' },
        vital('LCP', NaN),
      ])
    );
    expect(await summarize(records, { by: ['remote'] })).toEqual({ groups: [], views: 0, records: 0 });
  });
});

describe('over the record store', () => {
  /** @type {string} */
  let dir;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'summary-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads a window of every writer and hour', async () => {
    let clock = T0 + 50 * 60_000;
    const first = createRecordWriter({ dir, now: () => clock });
    const second = createRecordWriter({ dir, now: () => clock });
    first.write([view({ t: clock }), vital('TTFB', 900, { t: clock })]);
    second.write([vital('TTFB', 300, { t: clock }), vital('TTFB', 2000, { t: clock })]);
    await Promise.all([first.flush(), second.flush()]);
    clock += 20 * 60_000;
    first.write([vital('TTFB', 100, { t: clock })]);
    await first.flush();
    const all = await summarize(readRecords(dir, { since: T0, until: clock }), { by: ['remote'] });
    // Sorted 100 300 900 2000: rank 3 is 900 ms, needs improvement.
    expect(all.groups[0]?.vitals.TTFB).toMatchObject({ count: 4, p75: 900, rating: 'needs-improvement' });
    const later = await summarize(readRecords(dir, { since: T0 + 60 * 60_000, until: clock }), { by: ['remote'] });
    expect(later.groups[0]?.vitals.TTFB).toMatchObject({ count: 1, p75: 100, rating: 'good' });
  });
});

const fc = require('fast-check');
const { remoteNames } = require('./remotes');
const {
  BUCKET_COOKIE,
  BUCKETS,
  bucketCookie,
  canariesContent,
  parseCanaries,
  onAnySide,
  bucketOffset,
  newBucket,
  parseBucket,
  sideOf,
} = require('./canaryBuckets');

const everyBucket = Array.from({ length: BUCKETS }, (_, bucket) => bucket);
/**
 * @param {string} remote
 * @param {number} share
 */
const count = (remote, share) => {
  /** @type {Record<import('./canaryBuckets').CanarySide, number>} */
  const sides = { canary: 0, control: 0, outside: 0 };
  for (const bucket of everyBucket) sides[sideOf(bucket, remote, share)] += 1;
  return sides;
};

describe('canary buckets', () => {
  it.each([
    [5, { canary: 5, control: 5, outside: 90 }],
    [25, { canary: 25, control: 25, outside: 50 }],
    [50, { canary: 50, control: 50, outside: 0 }],
    [75, { canary: 75, control: 25, outside: 0 }],
    [100, { canary: 100, control: 0, outside: 0 }],
    [0, { canary: 0, control: 0, outside: 100 }],
  ])('at %d %% puts that share of buckets in the canary, as many in the control', (share, sides) => {
    for (const remote of remoteNames) expect(count(remote, share)).toEqual(sides);
  });

  it('keeps a visitor on its side as the share grows, the canary and its control alike, until the promote', () => {
    const shares = [5, 25, 50];
    for (const remote of remoteNames) {
      for (const bucket of everyBucket) {
        const sides = shares.map((share) => sideOf(bucket, remote, share));
        const joined = sides.findIndex((side) => side !== 'outside');
        if (joined >= 0) for (const side of sides.slice(joined)) expect(side).toBe(sides[joined]);
      }
    }
  });

  it('gives each remote its own canary visitors, so that two canaries at once do not share them', () => {
    const offsets = new Set(remoteNames.map(bucketOffset));
    expect(offsets.size).toBe(remoteNames.length);
    const canaryOf = (/** @type {string} */ remote) =>
      everyBucket.filter((bucket) => sideOf(bucket, remote, 5) === 'canary').join();
    expect(new Set(remoteNames.map(canaryOf)).size).toBe(remoteNames.length);
  });

  it('puts 25 % of new visitors, ± 6 %, in a canary at 25 %', () => {
    // The bound over 400 visitors is about three standard deviations: every seeded run of 400 stays inside.
    for (let seed = 1; seed <= 50; seed += 1) {
      let state = seed;
      const random = () => {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        return state / 4294967296;
      };
      const visitors = Array.from({ length: 400 }, () => sideOf(newBucket(random), 'jobs', 25));
      const share = visitors.filter((side) => side === 'canary').length / 400;
      expect(Math.abs(share - 0.25)).toBeLessThanOrEqual(0.06);
    }
  });

  it('reads only a bucket written as the browser writes it', () => {
    expect(everyBucket.map((bucket) => parseBucket(String(bucket)))).toEqual(everyBucket);
    for (const junk of [undefined, '', '100', '07', '-1', '1.0', ' 3', '3 ', '0x1', '1e1', 'NaN']) {
      expect(parseBucket(junk)).toBeUndefined();
    }
    fc.assert(
      fc.property(fc.string(), (value) => {
        const bucket = parseBucket(value);
        return bucket === undefined || (String(bucket) === value && bucket >= 0 && bucket < BUCKETS);
      }),
    );
  });

  it('is sent by the browser for the whole site, first-party, secure on https, for a day or until cleared', () => {
    expect(bucketCookie(37, { secure: true })).toBe(`${BUCKET_COOKIE}=37; Path=/; Max-Age=86400; SameSite=Lax; Secure`);
    expect(bucketCookie(0, { secure: false })).toBe(`${BUCKET_COOKIE}=0; Path=/; Max-Age=86400; SameSite=Lax`);
    expect(bucketCookie(undefined, { secure: false })).toBe(`${BUCKET_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`);
    expect(newBucket(() => 0.999999999)).toBe(99);
    expect(newBucket(() => 0)).toBe(0);
  });
});

describe("the documents' list of running canaries", () => {
  it('reads back what it lists, and leaves out anything else', () => {
    const canaries = [
      { remote: 'jobs', share: 25 },
      { remote: 'comingSoon', share: 100 },
    ];
    expect(parseCanaries(canariesContent(canaries))).toEqual(canaries);
    expect(parseCanaries('')).toEqual([]);
    expect(parseCanaries(' jobs=5  x=101 jobs=07 =3 j.obs=4 employers=0 ')).toEqual([
      { remote: 'jobs', share: 5 },
      { remote: 'employers', share: 0 },
    ]);
  });

  it('says whether a bucket is on a side of any of them', () => {
    const canary = [...Array(BUCKETS).keys()].find((bucket) => sideOf(bucket, 'jobs', 10) === 'canary');
    const outside = [...Array(BUCKETS).keys()].find((bucket) => sideOf(bucket, 'jobs', 10) === 'outside');
    expect(onAnySide(/** @type {number} */ (canary), [{ remote: 'jobs', share: 10 }])).toBe(true);
    expect(onAnySide(/** @type {number} */ (outside), [{ remote: 'jobs', share: 10 }])).toBe(false);
    expect(onAnySide(/** @type {number} */ (canary), [])).toBe(false);
  });
});

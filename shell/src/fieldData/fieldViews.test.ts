import { MAX_ERRORS_PER_BEACON, MAX_VIEWS_PER_DOCUMENT, parseBeacon, type Beacon } from '@nativegtm/contract/fieldData';
import { FieldViews } from './fieldViews';

const jobs = { route: '/featured-jobs', remote: 'jobs', build: 'mf1-abc', device: 'mobile' as const };
const employers = { route: '/employers', remote: 'employers', build: 'mf2-def', device: 'mobile' as const };

function sent(views: FieldViews, accept = true): Beacon[] {
  const beacons: Beacon[] = [];
  for (const record of views.all) {
    views.flush(record, (beacon) => {
      beacons.push(JSON.parse(JSON.stringify(beacon)) as Beacon);
      return accept;
    });
  }
  return beacons;
}

describe('page views', () => {
  it('are numbered in their document: the load first, then each in-app navigation', () => {
    const views = new FieldViews(undefined);
    expect(views.begin(0, jobs)).toBeUndefined();
    const first = views.current()!;
    expect(views.begin(1500, employers)).toBe(first);
    expect(views.all.map(({ view, start, end }) => [view.seq, view.nav, start, end])).toEqual([
      [0, 'document', 0, 1500],
      [1, 'navigation', 1500, Infinity],
    ]);
    expect([views.at(10), views.at(1499.9), views.at(1500), views.at(9e9)].map((record) => record?.view.seq)).toEqual([
      0, 0, 1, 1,
    ]);
  });

  it(`stop at ${MAX_VIEWS_PER_DOCUMENT} a document: later pages are not measured, nor counted in the last`, () => {
    const views = new FieldViews(undefined);
    for (let at = 0; at <= MAX_VIEWS_PER_DOCUMENT; at += 1) views.begin(at * 1000, at % 2 ? employers : jobs);
    expect(views.all).toHaveLength(MAX_VIEWS_PER_DOCUMENT);
    expect(views.current()).toBeUndefined();
    expect(views.at(MAX_VIEWS_PER_DOCUMENT * 1000 + 5)).toBeUndefined();
    expect(views.all.at(-1)?.end).toBe(MAX_VIEWS_PER_DOCUMENT * 1000);
  });
});

describe('beacons', () => {
  it("carry the view, its vitals and errors, and open the view with its first; the contract's parser keeps them whole", () => {
    const views = new FieldViews('0123456789abcdef.1790000000.canary:jobs.fedcba9876543210.mwz1k0.' + 'a'.repeat(43));
    views.begin(0, jobs);
    const record = views.current()!;
    views.measure(record, 'TTFB', 120.46);
    views.measure(record, 'LCP', 1800);
    views.measure(record, 'LCP', 4600.04, { target: 'main>img.hero', targetRemote: 'jobs' });
    views.measure(record, 'CLS', 0.123456, { target: 'div.banner', targetRemote: 'shell' });
    views.measure(record, 'FCP', 9000, { target: 'h1' });
    views.fail(record, { source: 'error', remote: 'jobs', build: 'mf1-abc' });
    const [beacon, ...more] = sent(views);
    expect(more).toEqual([]);
    expect(beacon).toEqual({
      v: 1,
      token: '0123456789abcdef.1790000000.canary:jobs.fedcba9876543210.mwz1k0.' + 'a'.repeat(43),
      first: true,
      view: { seq: 0, route: '/featured-jobs', remote: 'jobs', build: 'mf1-abc', nav: 'document', device: 'mobile' },
      vitals: [
        { name: 'TTFB', value: 120.5 },
        // Poor: the element that made it so goes with it.
        { name: 'LCP', value: 4600, target: 'main>img.hero', targetRemote: 'jobs' },
        // Needs improvement, and FCP is never attributed: the value alone.
        { name: 'CLS', value: 0.1235 },
        { name: 'FCP', value: 9000 },
      ],
      errors: [{ source: 'error', remote: 'jobs', build: 'mf1-abc' }],
    });
    expect(parseBeacon(JSON.stringify(beacon))).toEqual(beacon);
  });

  it('carry no token without one, and open a view even with nothing measured yet', () => {
    const views = new FieldViews(undefined);
    views.begin(0, jobs);
    expect(sent(views)).toEqual([
      { v: 1, first: true, view: expect.objectContaining({ seq: 0 }), vitals: [], errors: [] },
    ]);
    expect(sent(views)).toEqual([]);
  });

  it('send a vital once per view, at its value then; what comes after goes in a later beacon of the view', () => {
    const views = new FieldViews(undefined);
    views.begin(0, jobs);
    const record = views.current()!;
    views.measure(record, 'CLS', 0.01);
    expect(sent(views)[0]?.vitals).toEqual([{ name: 'CLS', value: 0.01 }]);
    views.measure(record, 'CLS', 0.5);
    views.measure(record, 'INP', 80);
    views.fail(record, { source: 'rejection', remote: 'shell' });
    expect(sent(views)).toEqual([
      {
        v: 1,
        first: false,
        view: record.view,
        vitals: [{ name: 'INP', value: 80 }],
        errors: [{ source: 'rejection', remote: 'shell' }],
      },
    ]);
  });

  it(`count at most ${MAX_ERRORS_PER_BEACON} errors a view`, () => {
    const views = new FieldViews(undefined);
    views.begin(0, jobs);
    const record = views.current()!;
    for (let index = 0; index < 7; index += 1) views.fail(record, { source: 'error', remote: 'jobs' });
    expect(sent(views)[0]?.errors).toHaveLength(7);
    for (let index = 0; index < 7; index += 1) views.fail(record, { source: 'error', remote: 'jobs' });
    expect(sent(views)[0]?.errors).toHaveLength(MAX_ERRORS_PER_BEACON - 7);
    views.fail(record, { source: 'error', remote: 'jobs' });
    expect(sent(views)).toEqual([]);
  });

  it('keep what the browser refused for the next flush', () => {
    const views = new FieldViews(undefined);
    views.begin(0, jobs);
    views.measure(views.current()!, 'TTFB', 5);
    expect(sent(views, false)).toHaveLength(1);
    expect(sent(views)).toEqual([expect.objectContaining({ first: true, vitals: [{ name: 'TTFB', value: 5 }] })]);
  });
});

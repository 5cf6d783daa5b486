// Generated beacons: anyone can post to the field-data endpoint, so whatever arrives is read without throwing, and
// what is kept is only known fields, each within its bounds.
const fc = require('fast-check');
const {
  parseBeacon,
  VITAL_NAMES,
  VITALS,
  NAVIGATIONS,
  DEVICES,
  ERROR_SOURCES,
  MAX_TARGET_LENGTH,
} = require('./fieldData');

const anything = fc.oneof(fc.string({ unit: 'binary' }), fc.jsonValue(), fc.string({ minLength: 100, maxLength: 400 }));
const view = fc.record(
  {
    seq: fc.oneof(fc.nat(), fc.double(), anything),
    route: fc.oneof(fc.constantFrom('/', '/featured-jobs', 'not-found'), anything),
    remote: fc.oneof(fc.constantFrom('jobs', 'shell'), anything),
    build: fc.oneof(fc.constantFrom('b1a6a8730b', '0123456789abcdef'), anything),
    nav: fc.oneof(fc.constantFrom(...NAVIGATIONS), anything),
    device: fc.oneof(fc.constantFrom(...DEVICES), anything),
    extra: anything,
  },
  { requiredKeys: [] },
);
const vital = fc.record(
  {
    name: fc.oneof(fc.constantFrom(...VITAL_NAMES), anything),
    value: fc.oneof(fc.double(), fc.integer(), anything),
    target: anything,
    targetRemote: anything,
  },
  { requiredKeys: [] },
);
const error = fc.record(
  { source: fc.oneof(fc.constantFrom(...ERROR_SOURCES), anything), remote: anything, build: anything },
  { requiredKeys: [] },
);
const beacon = fc.oneof(
  fc
    .record(
      {
        v: fc.oneof(fc.constant(1), anything),
        first: fc.oneof(fc.boolean(), anything),
        token: anything,
        view: fc.oneof(view, anything),
        vitals: fc.oneof(fc.array(vital, { maxLength: 12 }), anything),
        errors: fc.oneof(fc.array(error, { maxLength: 30 }), anything),
      },
      { requiredKeys: [] },
    )
    .map((body) => JSON.stringify(body)),
  fc.json(),
  fc.string({ unit: 'binary' }),
);

const LABEL = /^[A-Za-z0-9/_.-]{1,64}$/;

describe('beacons, over generated ones', () => {
  it('are read without throwing, as known fields within bounds, or as none', () => {
    fc.assert(
      fc.property(beacon, (text) => {
        const kept = parseBeacon(text);
        if (kept === null) return;
        expect(Object.keys(kept).sort()).toEqual(expect.arrayContaining(['errors', 'first', 'v', 'view', 'vitals']));
        expect(Object.keys(kept.view).sort()).toEqual(['build', 'device', 'nav', 'remote', 'route', 'seq']);
        for (const name of ['route', 'remote', 'build'])
          expect(kept.view[/** @type {'route'} */ (name)]).toMatch(LABEL);
        expect(kept.vitals.length).toBeLessThanOrEqual(VITAL_NAMES.length);
        for (const item of kept.vitals) {
          expect(VITAL_NAMES).toContain(item.name);
          expect(item.value).toBeGreaterThanOrEqual(0);
          expect(item.value).toBeLessThanOrEqual(VITALS[item.name].unit === 'ms' ? 600_000 : 100);
          expect((item.target ?? '').length).toBeLessThanOrEqual(MAX_TARGET_LENGTH);
          expect(item.target ?? '').not.toMatch(/\p{Cc}/u);
        }
        expect(kept.errors.length).toBeLessThanOrEqual(10);
        for (const item of kept.errors) expect(item.remote).toMatch(LABEL);
      }),
      { numRuns: 2000 },
    );
  });
});

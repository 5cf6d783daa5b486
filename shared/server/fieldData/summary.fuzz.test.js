// Generated values: nearest-rank p75 agrees with web.dev's rule (at least 75% of the values good), and is the value
// a sort puts at that rank.
const fc = require('fast-check');
const { VITALS, VITAL_NAMES } = require('@nativegtm/contract/fieldData');
const { summarize } = require('./summary');

/** @param {import('@nativegtm/contract/fieldData').VitalName} name */
const values = (name) =>
  fc.array(
    fc.oneof(
      // Around the thresholds, where a rating turns.
      fc.constantFrom(VITALS[name].good, VITALS[name].poor, 0),
      fc.double({ min: 0, max: VITALS[name].poor * 2, noNaN: true }),
    ),
    { minLength: 1, maxLength: 60 },
  );

describe.each(VITAL_NAMES)('p75 of %s', (name) => {
  it('is good exactly when at least 75% of the values are, and is the value at rank ceil(0.75 n)', async () => {
    await fc.assert(
      fc.asyncProperty(values(name), async (list) => {
        const records = list.map((value) => ({
          t: 1,
          type: /** @type {const} */ ('vital'),
          route: '/',
          remote: 'jobs',
          release: 'r',
          device: 'mobile',
          nav: 'document',
          signed: false,
          name,
          value,
        }));
        const { groups } = await summarize(records, { by: ['remote'] });
        const summary = groups[0]?.vitals[name];
        const sorted = [...list].sort((a, b) => a - b);
        expect(summary?.p75).toBe(sorted[Math.ceil(0.75 * list.length) - 1]);
        expect(summary?.rating === 'good').toBe((summary?.shares.good ?? 0) >= 0.75);
      }),
    );
  });
});

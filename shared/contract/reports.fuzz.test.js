// Generated report bodies: anyone can post to the reports endpoint, so whatever arrives is read without throwing,
// and what is kept is only known types with short, one-line fields.
const fc = require('fast-check');
const { parseReports } = require('./reports');

const value = fc.oneof(fc.string({ unit: 'binary' }), fc.jsonValue(), fc.string({ minLength: 400, maxLength: 2000 }));
const cspBody = fc.record(
  { effectiveDirective: value, documentURL: value, blockedURL: value, disposition: value, extra: value },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc
    .array(fc.record({ type: fc.oneof(fc.constant('csp-violation'), fc.string()), body: fc.oneof(cspBody, value) }))
    .map((reports) => JSON.stringify(reports)),
  fc.record({ 'csp-report': fc.oneof(cspBody, value) }).map((report) => JSON.stringify(report)),
  fc
    .record({
      type: fc.oneof(fc.constantFrom('remote-failure', 'integrity-failure'), fc.string()),
      remote: value,
      build: value,
      route: value,
      message: value,
      file: value,
    })
    .map((report) => JSON.stringify(report)),
  fc.json(),
  fc.string({ unit: 'binary' }),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/reports+json',
  'application/csp-report',
  'text/plain',
  '',
);

describe('report bodies, over generated ones', () => {
  it('are read without throwing, as known reports with short one-line string fields, or as none', () => {
    fc.assert(
      fc.property(contentType, body, (type, text) => {
        const reports = parseReports(type, text);
        if (reports === null) return true;
        return reports.every(
          (report) =>
            ['csp-violation', 'remote-failure', 'integrity-failure'].includes(report.type) &&
            Object.values(report).every(
              (field) => typeof field === 'string' && field.length <= 301 && !/\p{Cc}/u.test(field),
            ),
        );
      }),
      { numRuns: 3000 },
    );
  });
});

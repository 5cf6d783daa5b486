const { MAX_REPORT_BYTES, integrityFailureReport, parseReports, remoteFailureReport } = require('./reports');

describe('reports from browsers', () => {
  it("reads the Reporting API's CSP violations, keeping only the known fields", () => {
    const body = JSON.stringify([
      {
        type: 'csp-violation',
        age: 1,
        url: 'http://localhost:3000/employers',
        user_agent: 'x',
        body: {
          documentURL: 'http://localhost:3000/employers',
          effectiveDirective: 'script-src-elem',
          blockedURL: 'inline',
          disposition: 'enforce',
          sample: 'alert(1)',
        },
      },
      { type: 'deprecation', body: { id: 'x' } },
    ]);
    expect(parseReports('application/reports+json', body)).toEqual([
      {
        type: 'csp-violation',
        document: 'http://localhost:3000/employers',
        directive: 'script-src-elem',
        blocked: 'inline',
        disposition: 'enforce',
      },
    ]);
  });

  it('reads the older application/csp-report body', () => {
    const body = JSON.stringify({
      'csp-report': {
        'document-uri': 'http://localhost:3000/',
        'violated-directive': 'style-src',
        'blocked-uri': 'https://evil.example/x.css',
      },
    });
    expect(parseReports('application/csp-report; charset=utf-8', body)).toEqual([
      {
        type: 'csp-violation',
        document: 'http://localhost:3000/',
        directive: 'style-src',
        blocked: 'https://evil.example/x.css',
        disposition: 'enforce',
      },
    ]);
  });

  it("round-trips the shell's report of a failed remote", () => {
    const report = remoteFailureReport({ remote: 'jobs', build: 'ab12', route: '/featured-jobs', message: 'timeout' });
    expect(parseReports('application/json', JSON.stringify(report))).toEqual([report]);
  });

  it("round-trips the shell's report of a file it refused for its integrity, which must name the file", () => {
    const report = integrityFailureReport({
      remote: 'jobs',
      build: 'ab12',
      route: '/featured-jobs',
      file: 'http://localhost:3003/262.0123456789.js',
    });
    expect(parseReports('application/json', JSON.stringify(report))).toEqual([report]);
    expect(parseReports('application/json', JSON.stringify({ ...report, file: '' }))).toBeNull();
  });

  it('cuts long fields and takes control characters out, so a report is one short log line', () => {
    const report = remoteFailureReport({ remote: 'jobs', route: '/', message: `a\nb\u0000${'x'.repeat(5000)}` });
    expect(report.message).toMatch(/^a b x+…$/);
    expect(report.message.length).toBeLessThanOrEqual(301);
  });

  it('takes junk for no report', () => {
    for (const [type, body] of [
      ['application/json', 'not json'],
      ['application/json', '{"type":"remote-failure"}'],
      ['application/json', '{"type":"other"}'],
      ['application/reports+json', '{"type":"csp-violation"}'],
      ['application/reports+json', '[]'],
      ['application/csp-report', '{"csp-report":{}}'],
      ['text/plain', '[1,2,3]'],
    ]) {
      expect([type, body, parseReports(/** @type {string} */ (type), /** @type {string} */ (body))]).toEqual([
        type,
        body,
        null,
      ]);
    }
    expect(MAX_REPORT_BYTES).toBe(16 * 1024);
  });
});

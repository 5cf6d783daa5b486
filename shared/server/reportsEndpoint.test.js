const http = require('node:http');
const { createReportsEndpoint } = require('./reportsEndpoint');
const { createMetrics } = require('./observability/metrics');
const { captureLogs } = require('./observability/logCapture');
const { MAX_REPORT_BYTES, integrityFailureReport, remoteFailureReport } = require('@nativegtm/contract/reports');
const { createFieldLabels } = require('./fieldData/fieldLabels');

describe('the reports endpoint', () => {
  /** @type {http.Server} */
  let server;
  /** @type {ReturnType<typeof captureLogs>} */
  let logs;
  /** @type {ReturnType<typeof createMetrics>} */
  let metrics;
  let time = 0;
  let url = '';

  beforeEach(async () => {
    logs = captureLogs();
    metrics = createMetrics();
    time = 0;
    // The site serves build "live1" of jobs, with no store.
    const labels = createFieldLabels({ liveBuilds: () => new Map([['jobs', 'live1']]) });
    const receive = createReportsEndpoint({
      logger: logs.logger,
      metrics,
      labels,
      burst: 3,
      perMinute: 60,
      now: () => time,
    });
    server = http.createServer((req, res) => receive(req, res, { id: 'req-1' }));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    url = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/_reports`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /**
   * @param {string} body
   * @param {string} [type]
   */
  const post = async (body, type = 'application/json') => {
    const response = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': type } });
    return { status: response.status, body: await response.text() };
  };
  const failure = JSON.stringify(
    remoteFailureReport({ remote: 'jobs', build: 'ab12', route: '/featured-jobs', message: '<script>x</script>' }),
  );

  it('counts a file refused for its integrity by remote and release, and logs it as an error', async () => {
    const refused = (/** @type {string} */ remote, /** @type {string} */ build) =>
      JSON.stringify(integrityFailureReport({ remote, build, route: '/featured-jobs', file: 'http://x/1.js' }));
    expect(await post(refused('jobs', 'live1'))).toEqual({ status: 204, body: '' });
    // Whatever a forged report names, it makes no new series: an unknown remote or release is "other".
    expect(await post(refused('jobs', 'forged-build'))).toEqual({ status: 204, body: '' });
    expect(await post(refused('not-a-remote', 'live1'))).toEqual({ status: 204, body: '' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('nativegtm_integrity_failures_total{remote="jobs",release="live1"} 1');
    expect(text).toContain('nativegtm_integrity_failures_total{remote="jobs",release="other"} 1');
    expect(text).toContain('nativegtm_integrity_failures_total{remote="other",release="other"} 1');
    expect(logs.lines[0]).toMatchObject({
      level: 50,
      msg: 'a browser refused a file for its integrity',
      report: { type: 'integrity-failure', remote: 'jobs', file: 'http://x/1.js' },
    });
  });

  it('accepts a report with an empty 204, logs its known fields and counts it', async () => {
    expect(await post(failure)).toEqual({ status: 204, body: '' });
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'browser report',
        reqId: 'req-1',
        report: {
          type: 'remote-failure',
          remote: 'jobs',
          build: 'ab12',
          route: '/featured-jobs',
          message: '<script>x</script>',
        },
      }),
    ]);
    expect(await metrics.registry.metrics()).toContain(
      'nativegtm_browser_reports_total{type="remote-failure",outcome="accepted"} 1',
    );
  });

  it('refuses junk with an empty 400, never echoing it', async () => {
    expect(await post('<img src=x onerror=alert(1)>')).toEqual({ status: 400, body: '' });
    expect(logs.lines).toEqual([]);
    expect(await metrics.registry.metrics()).toContain(
      'nativegtm_browser_reports_total{type="unknown",outcome="rejected"} 1',
    );
  });

  it('refuses a body over the limit, declared or streamed, without reading it', async () => {
    expect((await post('x'.repeat(MAX_REPORT_BYTES + 1))).status).toBe(413);
    const streamed = await new Promise((resolve) => {
      const request = http.request(url, { method: 'POST', headers: { 'Transfer-Encoding': 'chunked' } }, (res) =>
        resolve(res.statusCode),
      );
      request.on('error', () => resolve('closed'));
      request.write('x'.repeat(MAX_REPORT_BYTES));
      request.end('x'.repeat(100));
    });
    expect([413, 'closed']).toContain(streamed);
  });

  it('keeps a client to its budget: a burst, then a report a second, with 429 and Retry-After beyond it', async () => {
    for (let index = 0; index < 3; index += 1) expect((await post(failure)).status).toBe(204);
    const refused = await fetch(url, { method: 'POST', body: failure });
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '60']);
    time += 1000;
    expect((await post(failure)).status).toBe(204);
    expect((await post(failure)).status).toBe(429);
  });
});

const http = require('node:http');
const { createRequestObserver, requestId } = require('./requestLog');
const { createMetrics } = require('./metrics');
const { captureLogs } = require('./logCapture');

describe('request ids', () => {
  it("keeps a proxy's plain token and replaces anything else with a fresh id", () => {
    expect(requestId('edge-7f3a:42')).toBe('edge-7f3a:42');
    for (const junk of [undefined, '', 'a b', 'x'.repeat(129), 'id\r\nSet-Cookie: a=b', ['one', 'two']]) {
      expect(requestId(junk)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('the request log', () => {
  /** @type {http.Server} */
  let server;
  /** @type {ReturnType<typeof captureLogs>} */
  let logs;
  /** @type {ReturnType<typeof createMetrics>} */
  let metrics;
  let port = 0;

  beforeEach(async () => {
    logs = captureLogs();
    metrics = createMetrics();
    const observe = createRequestObserver({ server: 'shell', logger: logs.logger, metrics });
    server = http.createServer((req, res) => {
      const observed = observe(req, res);
      observed.route(req.url === '/slow' ? '/slow' : 'asset');
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 500);
      res.statusCode = req.url === '/missing' ? 404 : 200;
      res.end(observed.id);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /**
   * @param {string} path
   * @param {Record<string, string>} [headers]
   * @returns {Promise<{ status: number | undefined, id: string | string[] | undefined, body: string }>}
   */
  const get = (path, headers = {}) =>
    new Promise((resolve, reject) => {
      http
        .get({ port, path, headers, host: '127.0.0.1' }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode, id: res.headers['x-request-id'], body }));
        })
        .on('error', reject);
    });

  it('writes one line per request with its id, which the response carries back', async () => {
    const first = await get('/a.js', { 'X-Request-Id': 'from-the-edge' });
    const second = await get('/missing');
    expect([first.id, first.body]).toEqual(['from-the-edge', 'from-the-edge']);
    expect(second.id).toBe(second.body);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        msg: 'request',
        reqId: 'from-the-edge',
        server: 'shell',
        method: 'GET',
        url: '/a.js',
        route: 'asset',
        status: 200,
        ms: expect.any(Number),
      }),
      expect.objectContaining({ msg: 'request', reqId: second.id, url: '/missing', status: 404 }),
    ]);
    expect(await metrics.registry.metrics()).toContain(
      'nativegtm_http_requests_total{server="shell",route="asset",status="404"} 1',
    );
  });

  it('logs a request the client gave up on as 499, once', async () => {
    await new Promise((resolve) => {
      const request = http.get({ port, path: '/slow', host: '127.0.0.1' });
      request.on('error', () => resolve(undefined));
      setTimeout(() => request.destroy(), 100);
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(logs.lines).toEqual([expect.objectContaining({ url: '/slow', status: 499, aborted: true })]);
  });
});

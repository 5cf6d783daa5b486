const http = require('node:http');
const { createRouteHandler, is, anyPath } = require('./routeTable');
const { createMetrics } = require('./observability/metrics');
const { captureLogs } = require('./observability/logCapture');

describe('a route table', () => {
  it("counts a quiet route's requests without a log line, and logs every other", async () => {
    const logs = captureLogs();
    const metrics = createMetrics();
    const handler = createRouteHandler({
      name: 'shell',
      logger: logs.logger,
      metrics,
      routes: [
        {
          label: 'field-data',
          path: is('/_field-data'),
          methods: ['POST'],
          quiet: true,
          handle: (_req, res) => res.end(),
        },
        { label: 'asset', path: anyPath, handle: (_req, res) => res.end('file') },
      ],
    });
    const server = http.createServer(handler);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    const origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
    try {
      const beacon = await fetch(`${origin}/_field-data`, { method: 'POST', body: '{}' });
      expect(beacon.headers.get('x-content-type-options')).toBe('nosniff');
      await fetch(`${origin}/app.js`);
      // A method the quiet route does not take is an ordinary request: answered 405, and logged.
      expect((await fetch(`${origin}/_field-data`)).status).toBe(405);
      expect(logs.lines.map((line) => line.route)).toEqual(['asset', 'method-not-allowed']);
      const text = await metrics.registry.metrics();
      expect(text).toContain('nativegtm_http_requests_total{server="shell",route="field-data",status="200"} 1');
      expect(text).toContain('nativegtm_http_requests_total{server="shell",route="asset",status="200"} 1');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

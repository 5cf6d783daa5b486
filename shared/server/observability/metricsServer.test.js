const { createMetrics } = require('./metrics');
const { startMetricsServer } = require('./metricsServer');

describe('the metrics endpoint', () => {
  it('serves the registry in the Prometheus text format at /metrics only, never cached', async () => {
    const metrics = createMetrics();
    metrics.request('shell', '/', 200);
    const server = await startMetricsServer(metrics, { port: 0 });
    try {
      const base = server.url.replace(/\/metrics$/, '');
      const response = await fetch(server.url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toContain('nativegtm_http_requests_total{server="shell",route="/",status="200"} 1');
      expect((await fetch(`${base}/`)).status).toBe(404);
      // No status page unless one is given (serve.js gives the primary's).
      const status = await fetch(`${base}/status`);
      expect(status.status).toBe(404);
      expect(await status.text()).toBe('Not found: metrics are at /metrics\n');
      expect((await fetch(server.url, { method: 'POST' })).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});

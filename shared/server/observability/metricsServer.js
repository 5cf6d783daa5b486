// The metrics endpoint, on its own listener (127.0.0.1:9464 by default, Prometheus' conventional exporter port), never
// on the site's public origin: process and per-remote figures are for the operator's scraper, not for visitors.
const http = require('node:http');
const { listen, close } = require('../httpServer');

const DEFAULT_METRICS_HOST = '127.0.0.1';
const DEFAULT_METRICS_PORT = 9464;

/**
 * @param {{ registry: { metrics: () => Promise<string>, contentType: string } }} metrics
 *   what is served: one process's metrics (metrics.js), or every worker's summed up (cluster/primary.js)
 * @param {{ host?: string, port?: number }} [options]
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
async function startMetricsServer(metrics, { host = DEFAULT_METRICS_HOST, port = DEFAULT_METRICS_PORT } = {}) {
  const server = http.createServer(async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      return res.end('Not found: metrics are at /metrics\n');
    }
    try {
      const text = await metrics.registry.metrics();
      res.setHeader('Content-Type', metrics.registry.contentType);
      res.end(req.method === 'HEAD' ? undefined : text);
    } catch (error) {
      res.statusCode = 500;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end(`Metrics could not be collected: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  });
  await listen(server, port, 'metrics', host);
  // The port listened on: port 0 (tests) lets the system pick one.
  const { port: actual } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { url: `http://${host}:${actual}/metrics`, stop: () => close(server) };
}

module.exports = { startMetricsServer, DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT };

// The metrics endpoint, on its own listener (127.0.0.1:9464 by default, Prometheus' conventional exporter port), never
// on the site's public origin: process and per-remote figures are for the operator's scraper, not for visitors. The
// field-data status page (statusPage.js) is served beside it for the same reason.
const http = require('node:http');
const { listen, close } = require('../httpServer');
const { STATUS_PATH, STATUS_PAGE_HEADERS } = require('./statusPage');

const DEFAULT_METRICS_HOST = '127.0.0.1';
const DEFAULT_METRICS_PORT = 9464;

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} text
 */
function plain(res, status, text) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(text);
}

/**
 * @param {{ registry: { metrics: () => Promise<string>, contentType: string } }} metrics
 *   what is served: one process's metrics (metrics.js), or every worker's summed up (cluster/primary.js)
 * @param {{ host?: string, port?: number, statusPage?: import('./statusPage').StatusPage }} [options]
 *   statusPage: served at /status when given
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
async function startMetricsServer(
  metrics,
  { host = DEFAULT_METRICS_HOST, port = DEFAULT_METRICS_PORT, statusPage } = {},
) {
  const notFound = `Not found: metrics are at /metrics${statusPage ? `, the field-data status page at ${STATUS_PATH}` : ''}\n`;
  const server = http.createServer(async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (read && req.url === STATUS_PATH && statusPage) {
      try {
        const html = await statusPage.html();
        for (const [name, value] of Object.entries(STATUS_PAGE_HEADERS)) res.setHeader(name, value);
        return res.end(req.method === 'HEAD' ? undefined : html);
      } catch (error) {
        return plain(
          res,
          500,
          `The status page could not be made: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
    if (req.url !== '/metrics' || !read) return plain(res, 404, notFound);
    try {
      const text = await metrics.registry.metrics();
      res.setHeader('Content-Type', metrics.registry.contentType);
      res.end(req.method === 'HEAD' ? undefined : text);
    } catch (error) {
      plain(res, 500, `Metrics could not be collected: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  });
  await listen(server, port, 'metrics', host);
  // The port listened on: port 0 (tests) lets the system pick one.
  const { port: actual } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://${host}:${actual}/metrics`,
    stop: async () => {
      await close(server);
      await statusPage?.close();
    },
  };
}

module.exports = { startMetricsServer, DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT };

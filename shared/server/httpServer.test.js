/** @jest-environment node */
const { createHttpServer, KEEP_ALIVE_MS, UPSTREAM_IDLE_MS } = require('./httpServer');

it('keeps an idle connection open longer than nginx keeps its own to it', () => {
  const server = createHttpServer((req, res) => res.end());
  expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
  expect(UPSTREAM_IDLE_MS).toBeLessThan(KEEP_ALIVE_MS);
});

/** @jest-environment node */
const http = require('node:http');
const { createFragmentCache } = require('./fragmentCache');

/** A remote whose answer each test sets; counts the requests it gets. */
let server;
let origin;
let answer = (_req, res) => res.end('fragment');
let requests = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests += 1;
    answer(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requests = 0;
  answer = (_req, res) => res.end('fragment');
});

describe('the fragment cache', () => {
  it('fetches once for concurrent and recent requests, and again once the copy is older than maxAge', async () => {
    let now = 0;
    const cache = createFragmentCache({ maxAgeMs: 500, now: () => now });
    const [a, b] = await Promise.all([cache.get(`${origin}/a`), cache.get(`${origin}/a`)]);
    expect([a, b, requests]).toEqual(['fragment', 'fragment', 1]);
    now = 400;
    await cache.get(`${origin}/a`);
    expect(requests).toBe(1);
    now = 501;
    answer = (_req, res) => res.end('new build');
    await expect(cache.get(`${origin}/a`)).resolves.toBe('new build');
    expect(requests).toBe(2);
  });

  it.each([
    ['an error status', (_req, res) => ((res.statusCode = 500), res.end('Error: stack trace'))],
    ['a redirect', (_req, res) => ((res.statusCode = 302), res.setHeader('Location', 'http://elsewhere/'), res.end())],
    ['a dropped connection', (req) => req.socket.destroy()],
  ])('answers null for %s, and remembers the failure for maxAge', async (_case, failing) => {
    answer = failing;
    const cache = createFragmentCache({ maxAgeMs: 60_000 });
    await expect(cache.get(`${origin}/b`)).resolves.toBeNull();
    await expect(cache.get(`${origin}/b`)).resolves.toBeNull();
    expect(requests).toBe(1);
  });

  it('gives up on a hanging remote after the timeout, and a caller never waits longer than it asked', async () => {
    const hanging = [];
    answer = (_req, res) => hanging.push(res);
    // Bounds far apart, so a loaded CI machine cannot blur them: the caller asks for 50 ms of a cache that would
    // wait 3 s, and is answered long before those 3 s; the cache alone gives up after its own 200 ms.
    const cache = createFragmentCache({ timeoutMs: 3000 });
    let started = Date.now();
    await expect(cache.get(`${origin}/c`, 50)).resolves.toBeNull();
    expect(Date.now() - started).toBeLessThan(1500);
    started = Date.now();
    await expect(createFragmentCache({ timeoutMs: 200 }).get(`${origin}/d`)).resolves.toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
    hanging.forEach((res) => res.destroy());
  });
});

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

/** Resolves once the condition holds (checked every 5 ms), or fails the test after 2 s. */
async function waitFor(condition) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > 2000) throw new Error('condition not met within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

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
    cache.close();
  });

  it('keeps a file asked for lately fresh in the background, so a visitor does not wait for the remote', async () => {
    let now = 0;
    const cache = createFragmentCache({ maxAgeMs: 500, idleMs: 10_000, now: () => now });
    await cache.get(`${origin}/fresh`);
    now = 200;
    cache.sweep();
    expect(requests).toBe(1); // a young copy is left alone
    now = 300;
    answer = (_req, res) => res.end('new build');
    cache.sweep();
    // The old copy is still young enough to serve while the new one is on its way.
    await expect(cache.get(`${origin}/fresh`)).resolves.toBe('fragment');
    await waitFor(() => requests === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    now = 700; // past the first copy's maxAge, within the refreshed one's
    await expect(cache.get(`${origin}/fresh`)).resolves.toBe('new build');
    expect(requests).toBe(2);
    cache.close();
  });

  it('asks again with the ETag it has, and keeps its copy when the remote answers 304', async () => {
    let now = 0;
    const seen = [];
    answer = (req, res) => {
      seen.push(req.headers['if-none-match']);
      if (req.headers['if-none-match'] === '"v1"') {
        res.statusCode = 304;
        return res.end();
      }
      res.setHeader('ETag', '"v1"');
      return res.end('fragment v1');
    };
    const cache = createFragmentCache({ maxAgeMs: 500, now: () => now });
    await expect(cache.get(`${origin}/etag`)).resolves.toBe('fragment v1');
    now = 600;
    await expect(cache.get(`${origin}/etag`)).resolves.toBe('fragment v1');
    expect(seen).toEqual([undefined, '"v1"']);
    // The 304 made the copy young again: served without asking, whatever the remote would answer now.
    answer = (_req, res) => ((res.statusCode = 500), res.end('Error'));
    now = 1000;
    await expect(cache.get(`${origin}/etag`)).resolves.toBe('fragment v1');
    expect(seen).toHaveLength(2);
    cache.close();
  });

  it('stops refreshing a file nobody asked for in idleMs, and fetches it afresh when asked again', async () => {
    let now = 0;
    const cache = createFragmentCache({ maxAgeMs: 500, idleMs: 1000, now: () => now });
    await cache.get(`${origin}/idle`);
    now = 1001;
    cache.sweep();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toBe(1);
    answer = (_req, res) => res.end('new build');
    await expect(cache.get(`${origin}/idle`)).resolves.toBe('new build');
    expect(requests).toBe(2);
    cache.close();
  });

  it('refreshes on its own timer, which stops when closed', async () => {
    const cache = createFragmentCache({ maxAgeMs: 80 });
    await cache.get(`${origin}/timer`);
    await waitFor(() => requests >= 3);
    cache.close();
    await new Promise((resolve) => setTimeout(resolve, 20)); // a fetch under way when closed may still end
    const settled = requests;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(requests).toBe(settled);
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
    cache.close();
  });

  it('does not keep a remote that is back waiting for a fetch that still hangs', async () => {
    let now = 0;
    const hanging = [];
    answer = (_req, res) => hanging.push(res);
    const cache = createFragmentCache({ maxAgeMs: 500, timeoutMs: 5000, now: () => now });
    await expect(cache.get(`${origin}/down`, 50)).resolves.toBeNull(); // the caller gave up; the fetch hangs on
    now = 600;
    answer = (_req, res) => res.end('back up');
    const started = Date.now();
    await expect(cache.get(`${origin}/down`)).resolves.toBe('back up');
    expect(Date.now() - started).toBeLessThan(2500);
    hanging.forEach((res) => res.destroy()); // the old fetch fails now, after the new one: the copy stays
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(cache.get(`${origin}/down`)).resolves.toBe('back up');
    expect(requests).toBe(2);
    cache.close();
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
    cache.close();
    started = Date.now();
    const short = createFragmentCache({ timeoutMs: 200 });
    await expect(short.get(`${origin}/d`)).resolves.toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
    short.close();
    hanging.forEach((res) => res.destroy());
  });
});

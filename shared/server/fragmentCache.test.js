/** @jest-environment node */
const http = require('node:http');
const v8 = require('node:v8');
const vm = require('node:vm');
const { createFragmentCache } = require('./fragmentCache');

/** A fetch's time limit in the tests that are not about it: a loaded machine can take longer than 400 ms. */
const SLOW_MACHINE_MS = 10_000;

/** A remote whose answer each test sets; counts the requests it gets. */
/** @typedef {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void} Answer */
/** @type {import('node:http').Server} */
let server;
/** @type {string} */
let origin;
/** @type {Answer} */
let answer = (_req, res) => void res.end('fragment');
let requests = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests += 1;
    answer(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requests = 0;
  answer = (_req, res) => res.end('fragment');
});

/**
 * Resolves once the condition holds (checked every 5 ms), or fails the test after `timeoutMs`.
 * @param {() => boolean} condition
 * @param {number} [timeoutMs]
 */
async function waitFor(condition, timeoutMs = 2000) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the fragment cache', () => {
  it('fetches once for concurrent and recent requests, and again once the copy is older than maxAge', async () => {
    let now = 0;
    const cache = createFragmentCache({ timeoutMs: SLOW_MACHINE_MS, maxAgeMs: 500, now: () => now });
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
    const cache = createFragmentCache({ timeoutMs: SLOW_MACHINE_MS, maxAgeMs: 500, idleMs: 10_000, now: () => now });
    await cache.get(`${origin}/fresh`);
    now = 150;
    cache.sweep();
    expect(requests).toBe(1); // a young copy is left alone
    now = 200;
    answer = (_req, res) => res.end('new build');
    cache.sweep();
    // The old copy is still young enough to serve while the new one is on its way.
    await expect(cache.get(`${origin}/fresh`)).resolves.toBe('fragment');
    await waitFor(() => requests === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    now = 600; // past the first copy's maxAge, within the refreshed one's
    await expect(cache.get(`${origin}/fresh`)).resolves.toBe('new build');
    expect(requests).toBe(2);
    cache.close();
  });

  it('fetches a file that can change in full every time: a same-size file with the old ETag is the new build', async () => {
    // What a static server answers when a deploy kept sizes and modification times: the same weak ETag for other
    // content, and 304 to a request that sends it.
    let content = 'build A';
    /** @type {(string | undefined)[]} */
    const seen = [];
    answer = (req, res) => {
      seen.push(req.headers['if-none-match']);
      if (req.headers['if-none-match'] === 'W/"7-1000"') {
        res.statusCode = 304;
        return res.end();
      }
      res.setHeader('ETag', 'W/"7-1000"');
      return res.end(content);
    };
    let now = 0;
    const cache = createFragmentCache({ timeoutMs: SLOW_MACHINE_MS, maxAgeMs: 500, now: () => now });
    await expect(cache.get(`${origin}/manifest`)).resolves.toBe('build A');
    content = 'build B';
    now = 600;
    await expect(cache.get(`${origin}/manifest`)).resolves.toBe('build B');
    expect(seen).toEqual([undefined, undefined]);
    cache.close();
  });

  it('keeps one good copy of a file whose URL names its build for as long as it is asked for, and never refreshes it', async () => {
    let now = 0;
    const cache = createFragmentCache({ timeoutMs: SLOW_MACHINE_MS, maxAgeMs: 500, idleMs: 10_000, now: () => now });
    const url = `${origin}/body?build=a`;
    await expect(cache.get(url, undefined, { immutable: true })).resolves.toBe('fragment');
    answer = (_req, res) => ((res.statusCode = 500), res.end('Error'));
    for (now = 100; now <= 9000; now += 100) {
      cache.sweep();
      await expect(cache.get(url, undefined, { immutable: true })).resolves.toBe('fragment');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toBe(1);
    // Asked for by nobody for idleMs: dropped, and fetched again when asked for.
    now = 20_000;
    cache.sweep();
    answer = (_req, res) => res.end('again');
    await expect(cache.get(url, undefined, { immutable: true })).resolves.toBe('again');
    expect(requests).toBe(2);
    cache.close();
  });

  it('fetches a file of a build again once its failure is older than maxAge', async () => {
    let now = 0;
    answer = (_req, res) => ((res.statusCode = 503), res.end('Unavailable'));
    const cache = createFragmentCache({ timeoutMs: SLOW_MACHINE_MS, maxAgeMs: 500, now: () => now });
    const url = `${origin}/body?build=b`;
    await expect(cache.get(url, undefined, { immutable: true })).resolves.toBeNull();
    now = 400;
    await expect(cache.get(url, undefined, { immutable: true })).resolves.toBeNull();
    expect(requests).toBe(1);
    answer = (_req, res) => res.end('fragment');
    now = 501;
    await expect(cache.get(url, undefined, { immutable: true })).resolves.toBe('fragment');
    expect(requests).toBe(2);
    cache.close();
  });

  it('does not keep an answer that is not the file asked for: it asks again once that failure is older than maxAge', async () => {
    let now = 0;
    // The manifest already names build c; the remote still answers the file of build b (a deploy half-way).
    answer = (_req, res) => res.end('<div data-build="b">old</div>');
    const cache = createFragmentCache({ timeoutMs: SLOW_MACHINE_MS, maxAgeMs: 500, idleMs: 10_000, now: () => now });
    const url = `${origin}/body?build=c`;
    const options = { immutable: true, accept: (/** @type {string} */ text) => text.startsWith('<div data-build="c"') };
    await expect(cache.get(url, undefined, options)).resolves.toBeNull();
    now = 400;
    await expect(cache.get(url, undefined, options)).resolves.toBeNull();
    expect(requests).toBe(1);
    // The deploy is done: the file of build c arrives, and is then kept.
    answer = (_req, res) => res.end('<div data-build="c">new</div>');
    now = 501;
    await expect(cache.get(url, undefined, options)).resolves.toBe('<div data-build="c">new</div>');
    now = 5000;
    cache.sweep();
    await expect(cache.get(url, undefined, options)).resolves.toBe('<div data-build="c">new</div>');
    expect(requests).toBe(2);
    cache.close();
  });

  it('keeps serving a copy that is still young enough when a background refresh fails', async () => {
    let now = 0;
    const cache = createFragmentCache({ timeoutMs: SLOW_MACHINE_MS, maxAgeMs: 500, now: () => now });
    await cache.get(`${origin}/flaky`);
    answer = (_req, res) => ((res.statusCode = 500), res.end('Error: stack trace'));
    now = 200;
    cache.sweep();
    await waitFor(() => requests === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    now = 450; // the good copy (fetched at 0) may still be served
    await expect(cache.get(`${origin}/flaky`)).resolves.toBe('fragment');
    now = 550; // too old now; the failure at 200 is remembered, so no visitor waits for the remote
    await expect(cache.get(`${origin}/flaky`)).resolves.toBeNull();
    expect(requests).toBe(2);
    answer = (_req, res) => res.end('back');
    now = 701; // the failure is forgotten: asked again
    await expect(cache.get(`${origin}/flaky`)).resolves.toBe('back');
    expect(requests).toBe(3);
    cache.close();
  });

  it('stops refreshing a file nobody asked for in idleMs, and fetches it afresh when asked again', async () => {
    let now = 0;
    const cache = createFragmentCache({ timeoutMs: SLOW_MACHINE_MS, maxAgeMs: 500, idleMs: 1000, now: () => now });
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

  it('once closed, ends the fetches under way, answers null and starts no timer', async () => {
    const hanging = [];
    let closedByClient = 0;
    answer = (req, res) => {
      hanging.push(res);
      req.socket.on('close', () => (closedByClient += 1));
    };
    const cache = createFragmentCache({ maxAgeMs: 80, timeoutMs: 10_000 });
    const pending = cache.get(`${origin}/closing`);
    await waitFor(() => hanging.length === 1);
    const started = Date.now();
    cache.close();
    await expect(pending).resolves.toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
    await waitFor(() => closedByClient === 1);
    await expect(cache.get(`${origin}/closing`)).resolves.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(requests).toBe(1);
  });

  it.each(
    /** @type {[string, Answer][]} */ ([
      ['an error status', (_req, res) => ((res.statusCode = 500), res.end('Error: stack trace'))],
      [
        'a redirect',
        (_req, res) => ((res.statusCode = 302), res.setHeader('Location', 'http://elsewhere/'), res.end()),
      ],
      ['a dropped connection', (req) => req.socket.destroy()],
    ]),
  )('answers null for %s, and remembers the failure for maxAge', async (_case, failing) => {
    answer = failing;
    const cache = createFragmentCache({ maxAgeMs: 60_000 });
    await expect(cache.get(`${origin}/b`)).resolves.toBeNull();
    await expect(cache.get(`${origin}/b`)).resolves.toBeNull();
    expect(requests).toBe(1);
    cache.close();
  });

  it('forgets a copy its owner dropped even while another fetch of it is under way, and keeps no answer of that fetch', async () => {
    let now = 0;
    /** @type {import('node:http').ServerResponse[]} */
    const held = [];
    answer = (_req, res) => void held.push(res);
    const cache = createFragmentCache({ timeoutMs: SLOW_MACHINE_MS, maxAgeMs: 1, now: () => now });
    const url = `${origin}/body?build=a`;
    const first = cache.get(url, undefined, { immutable: true });
    await waitFor(() => held.length === 1);
    // The refresher starts a second fetch once the first is older than maxAge (a remote that is back must not wait).
    now = 10;
    cache.sweep();
    await waitFor(() => held.length === 2);
    held[0]?.end('planted');
    await expect(first).resolves.toBe('planted');
    // Its owner refuses the copy (not the bytes recorded) while the second fetch is still under way.
    cache.drop(url, 'planted');
    held[1]?.end('planted');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Mended where it is served: the next request fetches it again, not the answer of the fetch begun before the drop.
    answer = (_req, res) => res.end('recorded');
    await expect(cache.get(url, undefined, { immutable: true })).resolves.toBe('recorded');
    expect(requests).toBe(3);
    // A refusal of the planted bytes that comes late (a document that waited on an old fetch) keeps the mended copy.
    cache.drop(url, 'planted');
    await expect(cache.get(url, undefined, { immutable: true })).resolves.toBe('recorded');
    expect(requests).toBe(3);
    cache.close();
  });

  it('does not keep a remote that is back waiting for a fetch that still hangs', async () => {
    let now = 0;
    /** @type {import('node:http').ServerResponse[]} */
    const hanging = [];
    answer = (_req, res) => void hanging.push(res);
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

  it('tells its owner the outcome of every fetch and every answer from a copy, by label', async () => {
    /** @type {{ url: string, label: string, outcome: string }[]} */
    const fetched = [];
    /** @type {string[]} */
    const hits = [];
    /** @type {import('node:http').ServerResponse[]} */
    const hanging = [];
    answer = (req, res) => {
      if (req.url === '/ok' || req.url === '/other-build') return void res.end(req.url === '/ok' ? 'fragment' : 'old');
      if (req.url === '/hang') return void hanging.push(res);
      res.statusCode = 503;
      res.end('Unavailable');
    };
    const cache = createFragmentCache({
      timeoutMs: 200,
      // No background refresh within the test: each file is fetched once.
      maxAgeMs: 60_000,
      events: {
        fetched: ({ url, label, outcome }) => void fetched.push({ url, label, outcome }),
        hit: (label) => void hits.push(label),
      },
    });
    await cache.get(`${origin}/ok`, undefined, { label: 'jobs' });
    await cache.get(`${origin}/ok`, undefined, { label: 'jobs' });
    await cache.get(`${origin}/down`, undefined, { label: 'jobs' });
    await cache.get(`${origin}/other-build`, undefined, { label: 'jobs', accept: (text) => text === 'new' });
    await cache.get(`${origin}/hang`, undefined, { label: 'employers' });
    await cache.get('http://127.0.0.1:1/refused', undefined, { label: 'candidates' });
    // The cache answers a caller at the timeout; its own fetch is ended, and told of, a moment later.
    await waitFor(() => fetched.length === 5);
    expect(fetched).toEqual(
      expect.arrayContaining([
        { url: `${origin}/ok`, label: 'jobs', outcome: 'ok' },
        { url: `${origin}/down`, label: 'jobs', outcome: 'status' },
        { url: `${origin}/other-build`, label: 'jobs', outcome: 'rejected' },
        { url: `${origin}/hang`, label: 'employers', outcome: 'timeout' },
        { url: 'http://127.0.0.1:1/refused', label: 'candidates', outcome: 'unreachable' },
      ]),
    );
    expect(hits).toEqual(['jobs']);
    cache.close();
    hanging.forEach((res) => res.destroy());
  });

  it('tells a caller that no answer came in time apart from a failure, and while it remembers either', async () => {
    /** @type {import('node:http').ServerResponse[]} */
    const hanging = [];
    answer = (req, res) => {
      if (req.url === '/slow') return void hanging.push(res);
      res.statusCode = 404;
      res.end();
    };
    // No background refresh within the test: what is told comes from each get alone.
    const cache = createFragmentCache({ timeoutMs: 200, maxAgeMs: 60_000 });
    /** @param {string} file @param {number} [waitMs] */
    const told = async (file, waitMs) => {
      /** @type {string | undefined} */
      let from;
      const text = await cache.get(`${origin}${file}`, waitMs, { answered: (how) => (from = how) });
      return { text, from };
    };
    // The caller's wait ends first; then its fetch, which the next caller joined, ends at the timeout; then the
    // failure remembered is still one of time.
    expect(await told('/slow', 50)).toEqual({ text: null, from: 'timeout' });
    expect(await told('/slow')).toEqual({ text: null, from: 'timeout' });
    expect(await told('/slow')).toEqual({ text: null, from: 'timeout' });
    // A remote that answers, but not with the file: a failure, then a remembered one.
    expect(await told('/missing')).toEqual({ text: null, from: 'fetch' });
    expect(await told('/missing')).toEqual({ text: null, from: 'failure' });
    cache.close();
    hanging.forEach((res) => res.destroy());
  });

  it('gives up on a hanging remote after the timeout, and a caller never waits longer than it asked', async () => {
    /** @type {import('node:http').ServerResponse[]} */
    const hanging = [];
    answer = (_req, res) => void hanging.push(res);
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

  it('ends the fetch of a hanging remote at the timeout even when memory is collected meanwhile', async () => {
    // AbortSignal.timeout inside AbortSignal.any is only weakly held: after a garbage collection it never fired, and
    // a document waited for a remote that answers after 8 s (seen on CI).
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    /** @type {number | undefined} */
    let closedAt;
    answer = (req) => req.on('close', () => (closedAt = Date.now()));
    const cache = createFragmentCache({ timeoutMs: 200 });
    const started = Date.now();
    const result = cache.get(`${origin}/hang-gc`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc();
    await expect(result).resolves.toBeNull();
    // The request itself was ended (not only given up on): the remote saw the connection close. Without the fix it
    // never closes (the remote never answers); the bound is far from the 200 ms timeout so that a machine busy with
    // builds and browsers beside the tests does not blur the two (1.7 s was seen there with a bound of 1.5 s).
    await waitFor(() => closedAt !== undefined, 5000);
    expect(/** @type {number} */ (closedAt) - started).toBeLessThan(5000);
    cache.close();
  });
});

/** @jest-environment node */
// The shell's routes: what each path and method gets, composing (npm start) and not (its own dist/ alone).
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { remoteFailureReport } = require('@nativegtm/contract/reports');
const { FIELD_DATA_PATH, SAMPLE_RATE_META } = require('@nativegtm/contract/fieldData');
const { readRecords } = require('./fieldData/recordStore');
const { createShellHandler } = require('./shellServer');
const { createMetrics } = require('./observability/metrics');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-shell-'));
const remotesFile = path.join(root, 'configured-remotes.json');
const REMOTES = '{ "jobs": "http://127.0.0.1:9/mf-manifest.json" }\n';
fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>NativeGTM</title>');
fs.writeFileSync(path.join(root, 'remotes.json'), '{}');
fs.writeFileSync(path.join(root, 'main.0123456789.js'), 'export {};');
fs.writeFileSync(remotesFile, REMOTES);

/** @type {http.Server[]} */
const servers = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  fs.rmSync(root, { recursive: true, force: true });
});

/**
 * A server on a free port with this handler; its origin.
 * @param {import('node:http').RequestListener} handler
 */
async function serve(handler) {
  const server = http.createServer(handler);
  servers.push(server);
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
  return `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
}

describe("the composing shell's routes", () => {
  /** @type {string} */
  let origin;
  beforeAll(async () => {
    const handler = createShellHandler({
      root,
      remotesFile,
      compose: { routes: [{ route: '/featured-jobs', remote: 'jobs' }], origin: 'https://nativegtm.example' },
    });
    origin = await serve(handler);
    servers[servers.length - 1]?.once('close', () => handler.close?.());
  });

  it.each([
    ['GET', '/_reports', 405, 'POST'],
    ['POST', '/featured-jobs', 405, 'GET, HEAD'],
    ['DELETE', '/healthz', 405, 'GET, HEAD'],
    ['PUT', '/main.0123456789.js', 405, 'GET, HEAD'],
  ])('%s %s: %i, allowing %s', async (method, target, status, allow) => {
    const response = await fetch(`${origin}${target}`, { method });
    expect([response.status, response.headers.get('allow')]).toEqual([status, allow]);
  });

  it('takes reports by POST', async () => {
    const report = remoteFailureReport({ remote: 'jobs', build: 'ab', route: '/featured-jobs', message: 'x' });
    const response = await fetch(`${origin}/_reports`, {
      method: 'POST',
      body: JSON.stringify(report),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(204);
  });

  it('composes page routes and unknown paths, and serves files as they are', async () => {
    const page = await fetch(`${origin}/featured-jobs`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect((await fetch(`${origin}/nowhere`)).status).toBe(404);
    expect((await fetch(`${origin}/index.html`)).status).toBe(404);
    const file = await fetch(`${origin}/main.0123456789.js`);
    expect([file.status, file.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
  });

  it('serves the configured remotes.json, and the CSP allows its remotes', async () => {
    const config = await fetch(`${origin}/remotes.json`);
    // As browsers get it: a remote whose list its server does not answer has no integrity vouched for.
    expect([config.status, config.headers.get('cache-control'), await config.json()]).toEqual([
      200,
      'no-cache',
      JSON.parse(REMOTES),
    ]);
    const page = await fetch(`${origin}/featured-jobs`);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' http:\/\/127\.0\.0\.1:9;/);
  });

  it('answers /healthz, robots.txt and sitemap.xml', async () => {
    const health = await fetch(`${origin}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, 'ok\n']);
    expect(await (await fetch(`${origin}/robots.txt`)).text()).toContain(
      'Sitemap: https://nativegtm.example/sitemap.xml',
    );
    expect(await (await fetch(`${origin}/sitemap.xml`)).text()).toContain(
      '<loc>https://nativegtm.example/featured-jobs</loc>',
    );
  });
});

describe("the composing shell's field data", () => {
  it("labels a beacon of a page it never composed with that remote's live build", async () => {
    const build = 'b1a6a8730b';
    // A jobs remote that only answers its ssr/manifest.json: no document of its page is composed here.
    const remote = await serve((req, res) =>
      req.url === '/ssr/manifest.json'
        ? res.end(JSON.stringify({ name: 'jobs', buildId: build, query: {} }))
        : res.writeHead(404).end(),
    );
    const jobsRemotes = path.join(root, 'jobs-remotes.json');
    fs.writeFileSync(jobsRemotes, JSON.stringify({ jobs: `${remote}/mf-manifest.json` }));
    const dir = path.join(root, 'field-data');
    const handler = createShellHandler({
      root,
      remotesFile: jobsRemotes,
      compose: { routes: [{ route: '/featured-jobs', remote: 'jobs' }], origin: 'https://nativegtm.example' },
      fieldData: { dir, secret: 's'.repeat(32) },
    });
    const origin = await serve(handler);
    const since = Date.now();
    // Right away, as the server starts: the beacon waits for the first read of the live builds.
    const beacon = {
      v: 1,
      first: true,
      view: { seq: 1, route: '/featured-jobs', remote: 'jobs', build, nav: 'navigation', device: 'mobile' },
      vitals: [{ name: 'LCP', value: 1200 }],
    };
    const response = await fetch(`${origin}${FIELD_DATA_PATH}`, { method: 'POST', body: JSON.stringify(beacon) });
    expect(response.status).toBe(204);
    handler.close?.();
    /** @type {import('./fieldData/recordStore').FieldRecord[]} */
    const kept = [];
    for await (const record of readRecords(dir, { since })) kept.push(record);
    expect(kept.map((record) => [record.type, record.release])).toEqual([
      ['view', build],
      ['vital', build],
    ]);
  });
});

describe("the composing shell's documents", () => {
  const measuring = path.join(root, 'measuring');
  fs.mkdirSync(measuring);
  fs.writeFileSync(
    path.join(measuring, 'index.html'),
    '<!doctype html><head><!--# include virtual="/_compose/site-head/jobs" --></head>',
  );
  const compose = { routes: [{ route: '/featured-jobs', remote: 'jobs' }], origin: 'https://nativegtm.example' };
  /** @param {Partial<import('./shellServer').ShellServerOptions>} options */
  async function documentOf(options) {
    const handler = createShellHandler({ root: measuring, remotesFile, compose, ...options });
    const origin = await serve(handler);
    servers[servers.length - 1]?.once('close', () => handler.close?.());
    return (await fetch(`${origin}/featured-jobs`)).text();
  }
  const sampleRateTag = new RegExp(`<meta name="${SAMPLE_RATE_META}" content="([^"]*)"`);

  it('ask browsers for no field data when the site takes none (a beacon would get a 405)', async () => {
    expect(sampleRateTag.exec(await documentOf({}))?.[1]).toBe('0');
  });

  it('ask for every page view, or the configured share, when the site takes field data', async () => {
    const fieldData = { dir: path.join(root, 'measured'), secret: 's'.repeat(32) };
    expect(await documentOf({ fieldData })).not.toMatch(sampleRateTag);
    expect(sampleRateTag.exec(await documentOf({ fieldData, compose: { ...compose, sampleRate: 0.25 } }))?.[1]).toBe(
      '0.25',
    );
  });
});

describe("the composing shell's documents for everyone", () => {
  /** @type {string} */
  let origin;
  const metrics = createMetrics();
  beforeAll(async () => {
    const handler = createShellHandler({
      root,
      remotesFile,
      metrics,
      compose: { routes: [{ route: '/featured-jobs', remote: 'jobs' }], origin: 'https://nativegtm.example' },
    });
    origin = await serve(handler);
    servers[servers.length - 1]?.once('close', () => handler.close?.());
  });

  /** @param {Record<string, string>} [headers] */
  const page = (headers = {}) => fetch(`${origin}/featured-jobs`, { headers });

  it('composes a page on its first request, then sends it ready, with a validator per encoding', async () => {
    const first = await page({ 'Accept-Encoding': 'br' });
    expect(first.status).toBe(200);
    const text = await first.text();
    const metric = () => metrics.registry.getSingleMetricAsString('nativegtm_shared_documents');
    for (let tries = 0; !(await metric()).includes('route="/featured-jobs"} 1'); tries += 1) {
      if (tries > 100) throw new Error('the document was never made ready');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await metrics.registry.getSingleMetricAsString('nativegtm_documents_composed_on_request_total')).toContain(
      'route="/featured-jobs",reason="not-ready"} 1',
    );
    const [br, gzip] = [await page({ 'Accept-Encoding': 'br' }), await page({ 'Accept-Encoding': 'gzip' })];
    expect([await br.text(), await gzip.text()]).toEqual([text, text]);
    const [brTag, gzipTag] = [br.headers.get('etag'), gzip.headers.get('etag')];
    expect(brTag).toMatch(/^"[^"]+-br"$/);
    expect(gzipTag).toMatch(/^"[^"]+-gzip"$/);
    expect((await page({ 'Accept-Encoding': 'br', 'If-None-Match': String(brTag) })).status).toBe(304);
    expect((await page({ 'Accept-Encoding': 'br', 'If-None-Match': String(gzipTag) })).status).toBe(200);
    // Sent ready: nothing more was composed for a request.
    expect(await metrics.registry.getSingleMetricAsString('nativegtm_documents_composed_on_request_total')).toContain(
      'route="/featured-jobs",reason="not-ready"} 1',
    );
  });
});

describe('the shell alone (not composing)', () => {
  it('serves its dist/ as a single-page app, with dist/remotes.json', async () => {
    const origin = await serve(createShellHandler({ root }));
    const page = await fetch(`${origin}/featured-jobs`);
    expect([page.status, await page.text()]).toEqual([200, '<!doctype html><title>NativeGTM</title>']);
    expect(await (await fetch(`${origin}/remotes.json`)).json()).toEqual({});
    expect((await fetch(`${origin}/_reports`, { method: 'POST', body: '[]' })).status).toBe(405);
  });
});

/** @jest-environment node */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createDocumentComposer } = require('./documentComposer');
const http = require('node:http');
const { bodyWrapperStart, headMarker } = require('@nativegtm/contract/fragments');
const { createRemotesFile } = require('./remotesFile');
const { fragmentTimedOut, serverTiming } = require('./fragmentTiming');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-composer-'));
const remotesFile = path.join(root, 'remotes.json');
fs.writeFileSync(remotesFile, '{}');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** @param {{ reuseMs: number, folder?: string }} options */
function composer({ reuseMs, folder = root }) {
  return createDocumentComposer({
    root: folder,
    remotes: createRemotesFile(remotesFile),
    routes: [{ route: '/employers', remote: 'employers' }],
    origin: 'https://nativegtm.example',
    reuseMs,
  });
}

describe('the document composer', () => {
  beforeAll(() => fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><p>NativeGTM</p>'));

  it('hands a target asked for again within reuseMs the same document, and composes it again after', async () => {
    const documents = composer({ reuseMs: 100 });
    try {
      const first = documents.render('/employers');
      expect(documents.render('/employers')).toBe(first);
      expect(documents.render('/employers?utm_source=x')).not.toBe(first);
      expect(await first).toMatchObject({ status: 200, html: '<!doctype html><p>NativeGTM</p>', route: '/employers' });
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(documents.render('/employers')).not.toBe(first);
    } finally {
      documents.close();
    }
  });

  it('composes every request afresh with reuseMs 0, and never hands on a composition that failed', async () => {
    const documents = composer({ reuseMs: 0 });
    expect(documents.render('/employers')).not.toBe(documents.render('/employers'));
    documents.close();

    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-composer-empty-'));
    const failing = composer({ reuseMs: 10_000, folder: empty });
    try {
      const first = failing.render('/employers');
      await expect(first).rejects.toThrow(/index.html is missing/);
      expect(failing.render('/employers')).not.toBe(first);
      await expect(failing.render('/employers')).rejects.toThrow(/index.html is missing/);
    } finally {
      failing.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("what a document waited for from its page's remote (Server-Timing)", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-composer-timing-'));
  const template =
    '<!doctype html><head><!--# include virtual="/_compose/page-head/$page" --></head>' +
    '<body><!--# include virtual="/_compose/page-body/$page?$args" --></body>';
  /** @type {Record<string, string>} */
  const files = {
    '/ssr/manifest.json': JSON.stringify({ name: 'employers', buildId: 'b1' }),
    '/ssr/head.html': `${headMarker('employers', 'b1')}<title>Employers</title>`,
    '/ssr/body/index.html': `${bodyWrapperStart('employers', 'b1')}data-variant="index"><h1>Hire</h1></div>`,
  };
  let up = true;
  let delayMs = 0;
  const remote = http.createServer((req, res) => {
    const file = files[new URL(String(req.url), 'http://remote').pathname];
    res.statusCode = up && file ? 200 : 503;
    setTimeout(() => res.end(up && file ? file : ''), delayMs);
  });
  /** @type {ReturnType<typeof createDocumentComposer>} */
  let documents;

  beforeAll(async () => {
    fs.writeFileSync(path.join(folder, 'index.html'), template);
    await new Promise((resolve) => remote.listen(0, '127.0.0.1', () => resolve(undefined)));
    const { port } = /** @type {import('node:net').AddressInfo} */ (remote.address());
    const remotes = path.join(folder, 'remotes.json');
    fs.writeFileSync(remotes, JSON.stringify({ employers: `http://127.0.0.1:${port}/mf-manifest.json` }));
    documents = createDocumentComposer({
      root: folder,
      remotes: createRemotesFile(remotes),
      routes: [{ route: '/employers', remote: 'employers' }],
      origin: 'https://nativegtm.example',
      reuseMs: 0,
      fragmentMaxAgeMs: 200,
    });
  });
  afterAll(async () => {
    documents.close();
    await new Promise((resolve) => remote.close(resolve));
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('says a fetch was a cache miss, then a copy a hit, with the time waited', async () => {
    const first = await documents.render('/employers');
    expect(first.html).toContain('<h1>Hire</h1>');
    expect(first.fragment).toMatchObject({ remote: 'employers', cache: 'miss' });
    expect(first.fragment?.ms).toBeGreaterThan(0);
    const second = await documents.render('/employers');
    expect(second.fragment).toMatchObject({ remote: 'employers', cache: 'hit' });
    expect(second.fragment?.ms).toBeLessThan(/** @type {number} */ (first.fragment?.ms));
    expect(serverTiming(/** @type {import('./fragmentTiming').FragmentTiming} */ (first.fragment), false)).toMatch(
      /^fragment;desc="employers: cache miss";dur=\d+(\.\d)?$/,
    );
  });

  it('says the fragment failed when its remote does not answer', async () => {
    up = false;
    try {
      // The manifest's copy ages out (200 ms); its new fetch fails.
      await new Promise((resolve) => setTimeout(resolve, 250));
      const document = await documents.render('/employers');
      expect(document.html).not.toContain('<h1>Hire</h1>');
      expect(document.fragment).toMatchObject({ remote: 'employers', cache: 'failed' });
    } finally {
      up = true;
    }
  });

  it('says the fragment timed out when its remote answers later than the timeout, apart from a failure', async () => {
    const failed = serverTiming({ remote: 'employers', ms: 3, cache: 'failed' }, false);
    expect(fragmentTimedOut(failed)).toBe(false);
    delayMs = 1000;
    try {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const document = await documents.render('/employers');
      expect(document.html).not.toContain('<h1>Hire</h1>');
      const fragment = /** @type {import('./fragmentTiming').FragmentTiming} */ (document.fragment);
      expect(fragment).toMatchObject({ remote: 'employers', cache: 'timeout' });
      const header = serverTiming(fragment, false);
      expect(header).toMatch(/^fragment;desc="employers: timed out";dur=\d+(\.\d)?$/);
      expect(fragmentTimedOut(header)).toBe(true);
    } finally {
      delayMs = 0;
    }
  });

  it('says a reused document waited for nothing, and a 404 names no remote', async () => {
    expect(serverTiming({ remote: 'jobs', ms: 12.34, cache: 'miss' }, true)).toBe(
      'fragment;desc="jobs: document reused";dur=0',
    );
    expect((await documents.render('/nope')).fragment).toBeUndefined();
  });
});

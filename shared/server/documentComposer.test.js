/** @jest-environment node */
const { createHash } = require('node:crypto');
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

/** @param {string} folder the shell's dist/ */
function composer(folder) {
  return createDocumentComposer({
    root: folder,
    remotes: createRemotesFile(remotesFile),
    routes: [{ route: '/employers', remote: 'employers' }],
    origin: 'https://nativegtm.example',
  });
}

describe('the document composer', () => {
  beforeAll(() => fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><p>NativeGTM</p>'));

  it('composes each call afresh, from the template as it is now, and says which route it is for', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-composer-afresh-'));
    fs.writeFileSync(path.join(folder, 'index.html'), '<!doctype html><p>NativeGTM</p>');
    const documents = composer(folder);
    try {
      // Two requests at once are two compositions: nothing is shared between them.
      const [first, second] = [documents.render('/employers'), documents.render('/employers')];
      expect(second).not.toBe(first);
      expect(await first).toMatchObject({
        status: 200,
        html: '<!doctype html><p>NativeGTM</p>',
        route: '/employers',
      });
      fs.writeFileSync(path.join(folder, 'index.html'), '<!doctype html><p>NativeGTM, again</p>');
      // The template is looked at again at most every 200 ms (fileReader).
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect((await documents.render('/employers')).html).toBe('<!doctype html><p>NativeGTM, again</p>');
      expect(await documents.render('/nowhere')).toMatchObject({ status: 404, route: undefined });
    } finally {
      documents.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it("fails, saying why, when the shell's template is missing", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-composer-empty-'));
    const failing = composer(empty);
    try {
      await expect(failing.render('/employers')).rejects.toThrow(/index.html is missing/);
    } finally {
      failing.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("what a document waited for from its page's remote (Server-Timing)", () => {
  const FRAGMENT_TIMEOUT_MS = 2000;
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
      fragmentMaxAgeMs: 200,
      // Longer than the default 400 ms: a cold fetch on a busy machine took longer, and the page was left out.
      fragmentTimeoutMs: FRAGMENT_TIMEOUT_MS,
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
    delayMs = FRAGMENT_TIMEOUT_MS + 500;
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

describe("a release's server-rendered HTML, pasted only with the bytes the store recorded", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-composer-vouched-'));
  const template =
    '<!doctype html><head><!--# include virtual="/_compose/page-head/$page" --></head>' +
    '<body><!--# include virtual="/_compose/page-body/$page?$args" --></body>';
  /** @param {string} text */
  const integrityOf = (text) => `sha384-${createHash('sha384').update(text).digest('base64')}`;
  /**
   * A build's server-rendered files, its manifest naming their integrity as the build writes it.
   * @param {string} buildId
   * @param {{ body?: string, listed?: boolean }} [options] body: the page's HTML; listed: whether the manifest
   *   names the files' integrity
   */
  function build(buildId, { body = '<h1>Hire</h1>', listed = true } = {}) {
    const head = `${headMarker('employers', buildId)}<title>Employers ${buildId}</title>`;
    const html = `${bodyWrapperStart('employers', buildId)}data-variant="index">${body}</div>`;
    const integrity = { 'ssr/head.html': integrityOf(head), 'ssr/body/index.html': integrityOf(html) };
    const manifest = JSON.stringify({ name: 'employers', buildId, ...(listed ? { integrity } : {}) });
    return { '/ssr/manifest.json': manifest, '/ssr/head.html': head, '/ssr/body/index.html': html };
  }
  /** What the remote's server answers: a release's files, as a node's copy has them. */
  let files = build('b1');
  const remote = http.createServer((req, res) => {
    const file = files[/** @type {keyof typeof files} */ (new URL(String(req.url), 'http://remote').pathname)];
    res.statusCode = file ? 200 : 404;
    res.end(file ?? '');
  });
  /** What the store vouches for: the manifests its records name (undefined: a dist/ remote, nothing checked). */
  /** @type {import('./releases/vouchedRemotes').VouchedFragments | undefined} */
  let vouched;
  /** @type {{ url: string, label: string }[]} */
  const refused = [];
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
      // Every document reads the manifest again: what the remote's server answers now.
      fragmentMaxAgeMs: 1,
      // Not what these tests are about: a busy machine can take longer than the default 400 ms for a whole document
      // (manifest, head and body fetched on loopback), and a body left out for want of time reads as one refused.
      fragmentTimeoutMs: 10_000,
      vouchedFragments: () => vouched,
      events: { refused: (event) => refused.push(event) },
    });
  });
  beforeEach(() => {
    refused.length = 0;
  });
  afterAll(async () => {
    documents.close();
    await new Promise((resolve) => remote.close(resolve));
    fs.rmSync(folder, { recursive: true, force: true });
  });

  /** A document composed once the manifest's copy is older than its max age. */
  async function page() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return (await documents.render('/employers')).html;
  }

  it('pastes head and page of the release whose manifest the store recorded', async () => {
    files = build('b1');
    vouched = { manifests: [{ release: 'r1', integrity: integrityOf(files['/ssr/manifest.json']) }] };
    const html = await page();
    expect(html).toContain('<title>Employers b1</title>');
    expect(html).toContain('<h1>Hire</h1>');
    expect(refused).toEqual([]);
  });

  it('leaves out a page changed where it is served, and says which file', async () => {
    const good = build('b2');
    files = {
      ...good,
      '/ssr/body/index.html': good['/ssr/body/index.html'].replace('Hire', 'Hire<script src="/x.js">'),
    };
    vouched = { manifests: [{ release: 'r2', integrity: integrityOf(good['/ssr/manifest.json']) }] };
    const html = await page();
    expect(html).toContain('<title>Employers b2</title>');
    expect(html).not.toContain('x.js');
    expect(html).not.toContain('<h1>Hire');
    expect(refused).toEqual([
      { url: expect.stringMatching(/\/ssr\/body\/index\.html\?build=b2$/), label: 'employers' },
    ]);
    // The same copy is hashed once, and refused for every document.
    expect(await page()).not.toContain('x.js');
    expect(refused).toHaveLength(2);
    // Mended where it is served (a node's store synced again): pasted again, though its URL names the same build.
    files = good;
    expect(await page()).toContain('<h1>Hire</h1>');
  });

  it('leaves out everything of a manifest the store did not record: a planted one, or one listing nothing', async () => {
    const good = build('b3');
    vouched = { manifests: [{ release: 'r3', integrity: integrityOf(good['/ssr/manifest.json']) }] };
    // Head, page and manifest rewritten to match each other: the record names another manifest.
    files = build('b3', { body: '<h1>Hire</h1><script src="/x.js"></script>' });
    expect(await page()).not.toContain('<h1>Hire');
    const bare = build('b4', { listed: false });
    files = bare;
    vouched = { manifests: [{ release: 'r4', integrity: integrityOf(bare['/ssr/manifest.json']) }] };
    expect(await page()).not.toContain('Employers b4');
    // A release recorded before records named its manifest vouches for none.
    files = build('b5');
    vouched = { manifests: [{ release: 'r5', integrity: undefined }] };
    const html = await page();
    expect(html).not.toContain('Employers b5');
    expect(html).not.toContain('<h1>Hire');
    expect(refused.map(({ url }) => url.replace(/^.*\/ssr\//, 'ssr/'))).toEqual([
      'ssr/manifest.json',
      'ssr/manifest.json',
      'ssr/manifest.json',
    ]);
  });

  it("takes either side of a promote the store names, and a dist/ remote's HTML unchecked", async () => {
    const before = build('b6');
    const after = build('b7');
    vouched = {
      manifests: [
        { release: 'r7', integrity: integrityOf(after['/ssr/manifest.json']) },
        { release: 'r6', integrity: integrityOf(before['/ssr/manifest.json']) },
      ],
    };
    files = before;
    expect(await page()).toContain('Employers b6');
    files = after;
    expect(await page()).toContain('Employers b7');
    vouched = undefined;
    files = build('b8', { listed: false });
    expect(await page()).toContain('Employers b8');
    expect(refused).toEqual([]);
  });
});

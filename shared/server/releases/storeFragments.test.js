/** @jest-environment node */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { storeLayout } = require('@nativegtm/store/layout');
const { writeLivePointer } = require('@nativegtm/store/livePointer');
const { publishRelease } = require('@nativegtm/store/publish');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');
const { createRouteHandler } = require('../routeTable');
const { createVouchedRemotes } = require('./vouchedRemotes');
const { LEFT_OUT, parseFragmentPath, storeFragmentsRoute } = require('./storeFragments');

const remoteNames = ['jobs', 'employers'];
const ID = '0123456789abcdef';

describe("the path nginx's relay asks with", () => {
  it.each([
    ['/_fragments/jobs/ssr/body/index.html', { remote: 'jobs', id: undefined, file: 'ssr/body/index.html' }],
    ['/_fragments/jobs/ssr/head.html', { remote: 'jobs', id: undefined, file: 'ssr/head.html' }],
    [`/_fragments/jobs/releases/${ID}/ssr/head.html`, { remote: 'jobs', id: ID, file: 'ssr/head.html' }],
  ])('%s names a remote, a release and a server-rendered file', (pathname, expected) => {
    expect(parseFragmentPath(pathname, remoteNames)).toEqual(expected);
  });

  it.each([
    '/_fragments/other/ssr/head.html',
    '/_fragments/jobs/remoteEntry.js',
    '/_fragments/jobs/ssr/../integrity.json',
    '/_fragments/jobs/ssr/body/../../remoteEntry.js',
    '/_fragments/jobs/ssr//head.html',
    '/_fragments/jobs/releases/nothex/ssr/head.html',
    '/_fragments/jobs/releases/',
    '/_fragments/jobs/ssr/body/index.html.gz',
    // Not included by nginx: its list is checked here, never answered.
    '/_fragments/jobs/ssr/manifest.json',
    // Decoded once by the server, then again by a URL parser: a dot segment.
    '/_fragments/jobs/ssr/%2e%2e/integrity.json',
    '/_fragments/jobs/ssr/body/%2E%2E/%2e%2e/remoteEntry.js',
    '/_fragments/jobs/ssr/body/../index.html',
    '/_fragments/',
  ])('%s names nothing', (pathname) => {
    expect(parseFragmentPath(pathname, remoteNames)).toBeUndefined();
  });
});

describe("the collector's answers to nginx's fragment relay", () => {
  /** @type {string} */
  let store;
  /** @type {http.Server} */
  let server;
  /** @type {string} */
  let base;
  /** @type {{ url: string, label: string }[]} */
  const refused = [];
  /** What the dist/ remote's own server answers, by path. */
  const distFiles = /** @type {Record<string, string>} */ ({ '/ssr/head.html': '<title>Employers</title>' });
  /** @type {http.Server} */
  let distServer;

  beforeEach(async () => {
    refused.length = 0;
    store = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-store-fragments-'));
    distServer = http.createServer((req, res) => {
      const file = distFiles[String(req.url)];
      res.statusCode = file ? 200 : 404;
      res.end(file ?? '');
    });
    await new Promise((resolve) => distServer.listen(0, '127.0.0.1', () => resolve(undefined)));
    const distPort = /** @type {import('node:net').AddressInfo} */ (distServer.address()).port;
    const entries = {
      jobs: 'http://127.0.0.1:1/mf-manifest.json',
      employers: `http://127.0.0.1:${distPort}/mf-manifest.json`,
    };
    const remotes = { file: 'remotes.json', entries: () => entries, text: () => JSON.stringify(entries) };
    const vouched = createVouchedRemotes({ remotes, releasesDir: store });
    const route = storeFragmentsRoute({
      remotes,
      releasesDir: store,
      remoteNames,
      vouched,
      events: { refused: (event) => refused.push(event) },
    });
    server = http.createServer(createRouteHandler({ name: 'collector', routes: [route] }));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    base = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
  });
  afterEach(async () => {
    await Promise.all([server, distServer].map((s) => new Promise((resolve) => s.close(resolve))));
    fs.rmSync(store, { recursive: true, force: true });
    removeFakeBuilds();
  });

  /** Publishes a release of jobs whose page's HTML is `body`, live when asked. */
  function release({ body = '<div>Jobs</div>', live = false, buildId = 'b1' } = {}) {
    const layout = storeLayout(store, 'jobs');
    const { id } = publishRelease(layout, 'jobs', fakeBuild({ buildId, body }), { commit: null, dirty: false });
    if (live) writeLivePointer(layout, id);
    return { layout, id };
  }

  /** @param {string} pathname */
  const get = async (pathname) => {
    const response = await fetch(`${base}${pathname}`);
    return { status: response.status, text: await response.text() };
  };

  /**
   * Changes a file of a published release, read-only as the store leaves it, as someone with the node's disk does.
   * @param {string} file
   * @param {string} text
   */
  function overwrite(file, text) {
    fs.chmodSync(path.dirname(file), 0o755);
    fs.chmodSync(file, 0o644);
    fs.writeFileSync(file, text);
  }

  it("answers the live release's page and a chosen release's, with the bytes their records name", async () => {
    release({ live: true });
    const chosen = release({ body: '<div>Jobs, chosen</div>', buildId: 'b2' });
    expect(await get('/_fragments/jobs/ssr/body/index.html')).toEqual({ status: 200, text: '<div>Jobs</div>' });
    expect(await get(`/_fragments/jobs/releases/${chosen.id}/ssr/body/index.html`)).toEqual({
      status: 200,
      text: '<div>Jobs, chosen</div>',
    });
    expect(refused).toEqual([]);
  });

  it('answers a comment for a page changed on the node, and for a manifest rewritten to match it, and says so', async () => {
    const { layout, id } = release({ live: true });
    const page = path.join(layout.release(id), 'ssr/body/index.html');
    overwrite(page, '<div>Jobs</div><script src="http://127.0.0.1:1/planted.js"></script>');
    expect(await get('/_fragments/jobs/ssr/body/index.html')).toEqual({ status: 200, text: LEFT_OUT });
    expect(refused).toEqual([{ url: 'ssr/body/index.html', label: 'jobs' }]);

    const other = release({ buildId: 'b3', body: '<div>Other</div>' });
    const manifest = path.join(other.layout.release(other.id), 'ssr/manifest.json');
    const listed = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    const forged = { ...listed, integrity: { 'ssr/body/index.html': `sha384-${'B'.repeat(64)}` } };
    overwrite(manifest, JSON.stringify(forged));
    expect(await get(`/_fragments/jobs/releases/${other.id}/ssr/body/index.html`)).toEqual({
      status: 200,
      text: LEFT_OUT,
    });
    expect(refused).toHaveLength(2);
  });

  it("answers a dist/ remote's file as its server does, and nothing for a path that names no such file", async () => {
    expect(await get('/_fragments/employers/ssr/head.html')).toEqual({ status: 200, text: '<title>Employers</title>' });
    // The remote's failure, as the relay met it before: the include prints its fallback.
    expect(await get('/_fragments/employers/ssr/body/index.html')).toMatchObject({ status: 502 });
    expect(await get('/_fragments/jobs/remoteEntry.js')).toMatchObject({ status: 404 });
    // A release the store does not have is vouched for by nothing.
    expect(await get(`/_fragments/jobs/releases/${ID}/ssr/head.html`)).toEqual({ status: 200, text: LEFT_OUT });
  });
});

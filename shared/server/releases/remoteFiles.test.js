/** @jest-environment node */
// A remote's server with a release store: the live release, then every kept release's hashed files, then dist/.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRemoteServer } = require('@nativegtm/server/remoteServer');
const { captureLogs } = require('@nativegtm/server/observability/logCapture');
const { listen, close } = require('@nativegtm/server/httpServer');
const { storeLayout } = require('@nativegtm/store/layout');
const { publishRelease } = require('@nativegtm/store/publish');
const { writeLivePointer } = require('@nativegtm/store/livePointer');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');

const source = { commit: null, dirty: false };
/** @type {string} */
let store;
/** @type {import('node:http').Server} */
let server;
/** @type {string} */
let origin;
/** @type {import('@nativegtm/store/layout').StoreLayout} */
let layout;
/** @type {ReturnType<typeof captureLogs>} */
let logs;
/** The problems the server logged with the live pointer. */
const problems = () => logs.lines.filter((line) => line.msg === 'live pointer ignored').map((line) => line.problem);

beforeEach(async () => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-store-'));
  layout = storeLayout(store, 'jobs');
  logs = captureLogs();
  const { logger } = logs;
  server = createRemoteServer({
    root: fakeBuild({ buildId: 'dist', chunk: 'dist.0123456789.js' }),
    releases: layout,
    logger,
  });
  await listen(server, 0, 'jobs');
  origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
});
afterEach(async () => {
  await close(server);
  fs.rmSync(store, { recursive: true, force: true });
  removeFakeBuilds();
});

/** @param {string} file */
const get = async (file) => {
  const response = await fetch(`${origin}${file}`);
  return { status: response.status, text: await response.text(), cache: response.headers.get('cache-control') };
};
/** @param {string} buildId */
const release = (buildId) =>
  publishRelease(layout, 'jobs', fakeBuild({ buildId, chunk: `${buildId}.0123456789.js` }), source).id;
const settle = () => new Promise((resolve) => setTimeout(resolve, 250));

describe("a remote's server with a release store", () => {
  it('serves dist/ while no release is live, and publishing changes nothing', async () => {
    release('a');
    expect((await get('/ssr/manifest.json')).text).toContain('"dist"');
  });

  it('serves the live release at its root within the check interval, then an older release its hashed files', async () => {
    const a = release('a');
    const b = release('b');
    writeLivePointer(layout, a);
    await settle();
    expect((await get('/ssr/manifest.json')).text).toContain('"a"');
    writeLivePointer(layout, b);
    await settle();
    expect((await get('/ssr/manifest.json')).text).toContain('"b"');
    // A tab that loaded release a's manifest still gets its chunk, cached for good.
    expect(await get('/a.0123456789.js')).toEqual({
      status: 200,
      text: '/* a.0123456789.js */',
      cache: expect.stringContaining('immutable'),
    });
    expect((await get('/dist.0123456789.js')).status).toBe(200);
    expect((await get('/none.0123456789.js')).status).toBe(404);
  });

  it('serves any release whole under /releases/<id>/, and only its own files there', async () => {
    const a = release('a');
    const b = release('b');
    writeLivePointer(layout, b);
    expect((await get(`/releases/${a}/ssr/manifest.json`)).text).toContain('"a"');
    expect((await get(`/releases/${a}/b.0123456789.js`)).status).toBe(404);
    expect((await get('/releases/0123456789abcdef/mf-manifest.json')).status).toBe(404);
    expect((await get(`/releases/${a}/../../records/${a}.json`)).status).toBe(404);
  });

  it('keeps the last good release when the pointer is corrupted, and logs why', async () => {
    const a = release('a');
    writeLivePointer(layout, a);
    await settle();
    expect((await get('/ssr/manifest.json')).text).toContain('"a"');
    fs.rmSync(layout.live);
    fs.symlinkSync('not-a-release', layout.live);
    await settle();
    expect((await get('/ssr/manifest.json')).text).toContain('"a"');
    expect(problems()).toEqual([expect.stringContaining('"not-a-release", which is not a release id')]);
  });
});

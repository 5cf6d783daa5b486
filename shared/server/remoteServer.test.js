const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { createRemoteHandler } = require('./remoteServer');
const { captureLogs } = require('./observability/logCapture');

// A redeploy replaces files while they are being served: a file found and then deleted before it is opened.
describe("a deployable's server during a redeploy", () => {
  /** @type {string} */
  let folder;
  /** @type {http.Server} */
  let server;
  /** @type {ReturnType<typeof captureLogs>} */
  let logs;
  beforeEach(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-static-'));
    fs.writeFileSync(path.join(folder, 'chunk.0123456789.js'), 'export {};\n'.repeat(1000));
    logs = captureLogs();
    server = http.createServer(createRemoteHandler({ root: folder, logger: logs.logger }));
    await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(folder, { recursive: true, force: true });
  });

  /** @param {string} file */
  const get = (file) =>
    new Promise((resolve) => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      http
        .get(`http://127.0.0.1:${port}/${file}`, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
          res.on('error', () => resolve('cut short'));
        })
        .on('error', () => resolve('cut short'))
        .setTimeout(2000, () => resolve('no answer'));
    });

  it('cuts that response short and goes on serving', async () => {
    // Deleted between sirv's lookup and its read: the moment a build cleaning its output folder can hit. Only this
    // test's own file: `fs` is shared by everything in the process (with `--runInBand`, the integration tests' servers
    // too, whose document server keeps fetching fragments in the background).
    const open = fs.createReadStream;
    jest.spyOn(fs, 'createReadStream').mockImplementation((file, options) => {
      if (String(file).startsWith(folder)) fs.rmSync(file, { force: true });
      return open(file, options);
    });
    await expect(get('chunk.0123456789.js')).resolves.toBe('cut short');
    expect(logs.lines).toContainEqual(
      expect.objectContaining({ msg: 'file vanished', path: '/chunk.0123456789.js', reason: 'ENOENT' }),
    );

    jest.mocked(fs.createReadStream).mockRestore();
    fs.writeFileSync(path.join(folder, 'chunk.0123456789.js'), 'export {};\n');
    await expect(get('chunk.0123456789.js')).resolves.toBe(200);
  });
});

describe("a remote's routes", () => {
  it('answers /healthz with 200 "ok", never cached', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-health-'));
    const server = http.createServer(createRemoteHandler({ root: folder }));
    await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
    try {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect([response.status, response.headers.get('cache-control'), await response.text()]).toEqual([
        200,
        'no-store',
        'ok\n',
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("a remote's answers to other origins", () => {
  /** @type {string} */
  let folder;
  /** @type {http.Server} */
  let server;
  /** @type {string} */
  let origin;
  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-remote-'));
    fs.writeFileSync(path.join(folder, 'mf-manifest.json'), '{}');
    server = http.createServer(createRemoteHandler({ root: folder }));
    await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
    origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('lets any origin load its files, and answers a preflight on any path', async () => {
    const file = await fetch(`${origin}/mf-manifest.json`);
    expect([file.status, file.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
    const preflight = await fetch(`${origin}/anything`, { method: 'OPTIONS' });
    expect([preflight.status, preflight.headers.get('access-control-allow-methods')]).toEqual([
      204,
      'GET, HEAD, OPTIONS',
    ]);
  });

  it('answers 404 for a file it does not have, and 405 for a write', async () => {
    expect((await fetch(`${origin}/missing.js`)).status).toBe(404);
    const write = await fetch(`${origin}/mf-manifest.json`, { method: 'PUT', body: 'x' });
    expect([write.status, write.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });
});

const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { createReadiness } = require('./readiness');
const { createRemotesFile } = require('./remotesFile');

/** Remotes on one server: /up answers a manifest, /broken an error, /junk not JSON, /hang never. */
/** @type {http.Server} */
let server;
let origin = '';
let requests = 0;
/** @type {string} */
let folder;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests += 1;
    if (req.url === '/up/mf-manifest.json') return res.end('{"id":"jobs"}');
    if (req.url === '/junk/mf-manifest.json') return res.end('<html>');
    if (req.url === '/hang/mf-manifest.json') return;
    res.statusCode = 502;
    res.end('bad gateway');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-readiness-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(folder, { recursive: true, force: true });
});
beforeEach(() => {
  requests = 0;
});

/**
 * A remotes.json with these contents, and its reader.
 * @param {Record<string, string> | string} remotes
 */
function remotesFile(remotes) {
  const file = path.join(folder, `remotes-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, typeof remotes === 'string' ? remotes : JSON.stringify(remotes));
  return createRemotesFile(file);
}

describe('the readiness of the shell', () => {
  it('is ready when every remote answers its manifest, with the time and live build of each', async () => {
    const readiness = createReadiness({
      remotes: remotesFile({ jobs: `${origin}/up/mf-manifest.json`, employers: `${origin}/up/mf-manifest.json` }),
      remoteNames: ['jobs', 'employers'],
      builds: () => new Map([['jobs', '0123abcd']]),
    });
    expect(await readiness()).toEqual({
      ready: true,
      remotesReady: true,
      remotesJson: 'ok',
      remotes: {
        jobs: { ready: true, ms: expect.any(Number), build: '0123abcd' },
        employers: { ready: true, ms: expect.any(Number) },
      },
    });
  });

  it("stays ready for a balancer when remotes fail, hang or answer junk; says each remote's why", async () => {
    const readiness = createReadiness({
      remotes: remotesFile({
        jobs: `${origin}/broken/mf-manifest.json`,
        employers: `${origin}/hang/mf-manifest.json`,
        candidates: `${origin}/junk/mf-manifest.json`,
      }),
      remoteNames: ['jobs', 'employers', 'candidates'],
      timeoutMs: 200,
    });
    const answer = await readiness();
    expect([answer.ready, answer.remotesReady]).toEqual([true, false]);
    expect(answer.remotes).toEqual({
      jobs: { ready: false, ms: expect.any(Number), error: 'answered 502' },
      employers: { ready: false, error: 'no answer within 200 ms' },
      candidates: { ready: false, error: 'not JSON' },
    });
  });

  it('is not ready when remotes.json names no valid address for a page: this node cannot serve it', async () => {
    const readiness = createReadiness({
      remotes: remotesFile({ jobs: `${origin}/up/mf-manifest.json`, comingSoon: 'ftp://nowhere/mf-manifest.json' }),
      remoteNames: ['jobs', 'comingSoon'],
    });
    const answer = await readiness();
    expect([answer.ready, answer.remotesReady]).toEqual([false, false]);
    expect(answer.remotes.comingSoon).toEqual({ ready: false, error: 'no valid entry in remotes.json' });
  });

  it('is not ready without a readable remotes.json, and takes junk in it for no remotes', async () => {
    const missing = createReadiness({
      remotes: createRemotesFile(path.join(folder, 'none.json')),
      remoteNames: ['jobs'],
    });
    expect(await missing()).toEqual({ ready: false, remotesReady: false, remotesJson: 'unreadable', remotes: {} });
    const junk = createReadiness({ remotes: remotesFile('{not json'), remoteNames: ['jobs'] });
    expect(await junk()).toEqual({
      ready: false,
      remotesReady: false,
      remotesJson: 'ok',
      remotes: { jobs: { ready: false, error: 'no valid entry in remotes.json' } },
    });
  });

  it('answers every probe within maxAge from one check, so probes cannot drive fetches to the remotes', async () => {
    let time = 0;
    const readiness = createReadiness({
      remotes: remotesFile({ jobs: `${origin}/up/mf-manifest.json` }),
      remoteNames: ['jobs'],
      maxAgeMs: 1000,
      now: () => time,
    });
    await Promise.all([readiness(), readiness(), readiness()]);
    time = 900;
    await readiness();
    expect(requests).toBe(1);
    time = 1001;
    await readiness();
    expect(requests).toBe(2);
  });
});

describe('the readiness of a node serving a copy of the store on PostgreSQL', () => {
  const { writeSnapshotStatus } = require('@nativegtm/store/postgres/snapshotStatus');
  const { storeCopyReader, STALE_AFTER_MS } = require('./releases/storeCopy');
  const remotes = () => remotesFile({ jobs: `${origin}/up/mf-manifest.json` });

  it('is not ready before the node holds a copy', async () => {
    const dir = fs.mkdtempSync(path.join(folder, 'store-'));
    const readiness = createReadiness({ remotes: remotes(), remoteNames: ['jobs'], storeCopy: storeCopyReader(dir) });
    expect(await readiness()).toMatchObject({
      ready: false,
      store: { present: false, stale: true, problem: 'no copy of the store yet' },
    });
  });

  it('is ready with a copy, and names its revision and age', async () => {
    const dir = fs.mkdtempSync(path.join(folder, 'store-'));
    const now = Date.parse('2026-11-28T10:00:00Z');
    writeSnapshotStatus(dir, { revision: '42', syncedAt: new Date(now - 2500).toISOString() });
    const readiness = createReadiness({
      remotes: remotes(),
      remoteNames: ['jobs'],
      storeCopy: storeCopyReader(dir, { now: () => now }),
    });
    expect(await readiness()).toMatchObject({
      ready: true,
      store: { present: true, revision: '42', ageSeconds: 2.5, stale: false },
    });
  });

  it('stays ready with a stale copy (the database down, or no word from it for long), and says so', async () => {
    const dir = fs.mkdtempSync(path.join(folder, 'store-'));
    const now = Date.parse('2026-11-28T10:00:00Z');
    const syncedAt = new Date(now - 1000).toISOString();
    writeSnapshotStatus(dir, { revision: '42', syncedAt, problem: "the store's database cannot be reached" });
    const down = createReadiness({
      remotes: remotes(),
      remoteNames: ['jobs'],
      storeCopy: storeCopyReader(dir, { now: () => now }),
    });
    expect(await down()).toMatchObject({
      ready: true,
      store: { stale: true, problem: expect.stringMatching(/cannot be reached/) },
    });

    writeSnapshotStatus(dir, { revision: '42', syncedAt: new Date(now - STALE_AFTER_MS - 1).toISOString() });
    const silent = createReadiness({
      remotes: remotes(),
      remoteNames: ['jobs'],
      storeCopy: storeCopyReader(dir, { now: () => now }),
    });
    expect(await silent()).toMatchObject({ ready: true, store: { stale: true } });
  });
});

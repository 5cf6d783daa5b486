const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseRemotesConfig } = require('@nativegtm/contract/remotesConfig');
const { storeLayout } = require('@nativegtm/store/layout');
const { writeLivePointer } = require('@nativegtm/store/livePointer');
const { publishRelease } = require('@nativegtm/store/publish');
const { listIntegrity } = require('@nativegtm/store/releaseIntegrity');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');
const { createVouchedRemotes } = require('./vouchedRemotes');

const entries = {
  candidates: 'http://localhost:3001/mf-manifest.json',
  employers: 'http://localhost:3002/mf-manifest.json',
  jobs: 'http://localhost:3003/mf-manifest.json',
  comingSoon: 'http://localhost:3004/mf-manifest.json',
};
const remotes = { file: 'remotes.json', entries: () => entries, text: () => JSON.stringify(entries) };
const sha384 = (/** @type {string} */ text) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

/** @type {string} */
let store;
/** What each remote's own server answers for its list, by URL; a 404 for the rest. */
let lists = /** @type {Record<string, string>} */ ({});
const fetched = /** @type {string[]} */ ([]);
const fetchImpl = /** @type {typeof fetch} */ (
  async (url) => {
    fetched.push(String(url));
    const text = lists[String(url)];
    return text === undefined ? new Response('', { status: 404 }) : new Response(text);
  }
);

beforeEach(() => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-vouched-'));
  lists = {
    'http://localhost:3001/integrity.json': 'the list of candidates',
    'http://localhost:3002/integrity.json': 'the list of employers',
    'http://localhost:3004/integrity.json': 'the list of comingSoon',
  };
  fetched.length = 0;
});
afterEach(() => {
  fs.rmSync(store, { recursive: true, force: true });
  removeFakeBuilds();
});

/** Publishes a release of jobs into the store, and makes it live when asked. */
function jobsRelease({ live = false, buildId = 'b1' } = {}) {
  const layout = storeLayout(store, 'jobs');
  const { id } = publishRelease(layout, 'jobs', fakeBuild({ buildId }), { commit: null, dirty: false });
  if (live) writeLivePointer(layout, id);
  return { layout, id };
}

/** @param {string | undefined} text */
const read = (text) => parseRemotesConfig(JSON.parse(/** @type {string} */ (text)));

describe('the remotes.json browsers get', () => {
  it("vouches for a live release's list from the store, and for a dist/ remote's from its own server", async () => {
    const { layout, id } = jobsRelease({ live: true });
    const vouched = createVouchedRemotes({ remotes, releasesDir: store, fetchImpl });
    const config = read(await vouched.json());
    expect(config.entries).toEqual(entries);
    expect(config.integrity).toEqual({
      candidates: sha384('the list of candidates'),
      employers: sha384('the list of employers'),
      jobs: listIntegrity(layout, id),
      comingSoon: sha384('the list of comingSoon'),
    });
    // The store's remote is never asked: what it serves is not what is vouched for.
    expect(fetched).not.toContain('http://localhost:3003/integrity.json');
  });

  it("vouches for a remote served from a folder of its own as its server answers, whatever is live (the gate's)", async () => {
    jobsRelease({ live: true });
    lists['http://localhost:3003/integrity.json'] = 'the list of the candidate release';
    const vouched = createVouchedRemotes({ remotes, releasesDir: store, servedFromFolders: ['jobs'], fetchImpl });
    expect(read(await vouched.json()).integrity.jobs).toBe(sha384('the list of the candidate release'));
  });

  it("vouches for no list changed on this node's disk since its publish, and logs it once", async () => {
    const { layout, id } = jobsRelease({ live: true });
    // Published files are read-only: someone with the node's disk makes it writable first.
    const list = path.join(layout.release(id), 'integrity.json');
    fs.chmodSync(list, 0o644);
    fs.writeFileSync(list, '{}');
    const error = jest.fn();
    const logger = /** @type {any} */ ({ error });
    const vouched = createVouchedRemotes({ remotes, releasesDir: store, logger, fetchImpl });
    expect(read(await vouched.json()).integrity.jobs).toBeUndefined();
    expect(read(await vouched.json()).integrity.jobs).toBeUndefined();
    expect(error.mock.calls).toEqual([
      [
        { remote: 'jobs', release: id },
        'no integrity list of this release on this node is the one its record names: browsers refuse its files',
      ],
    ]);
  });

  it('vouches for nothing it cannot read: a remote whose server does not answer its list', async () => {
    delete lists['http://localhost:3002/integrity.json'];
    const config = read(await createVouchedRemotes({ remotes, fetchImpl }).json());
    expect(config.entries.employers).toBe(entries.employers);
    expect(config.integrity.employers).toBeUndefined();
    expect(config.integrity.jobs).toBeUndefined();
  });

  it("moves a chosen release's remote to that release's folder, with that release's list", async () => {
    jobsRelease({ live: true });
    const { layout, id } = jobsRelease({ buildId: 'b2' });
    const vouched = createVouchedRemotes({ remotes, releasesDir: store, fetchImpl });
    const config = read(await vouched.json({ chosen: [{ remote: 'jobs', id }] }));
    expect(config.entries.jobs).toBe(`http://localhost:3003/releases/${id}/mf-manifest.json`);
    expect(config.integrity.jobs).toBe(listIntegrity(layout, id));
  });

  it('gives an overridden remote its dev server, vouching for nothing there', async () => {
    const vouched = createVouchedRemotes({ remotes, fetchImpl });
    const config = read(
      await vouched.json({ chosen: [], override: { remote: 'jobs', origin: 'http://localhost:5173' } }),
    );
    expect(config.entries.jobs).toBe('http://localhost:5173/mf-manifest.json');
    expect(config.integrity.jobs).toBeUndefined();
    expect(config.devServers).toEqual({ jobs: 'http://localhost:5173' });
    expect(fetched).not.toContain('http://localhost:5173/integrity.json');
  });

  it("reads a dist/ remote's list again once a second at most, and takes a redeploy's then", async () => {
    // (Not from 0: the cache reads a start of 0 as none.)
    let time = 1;
    const vouched = createVouchedRemotes({ remotes, fetchImpl, now: () => time });
    await vouched.json();
    await vouched.json();
    expect(fetched.filter((url) => url.endsWith(':3001/integrity.json'))).toHaveLength(1);
    lists['http://localhost:3001/integrity.json'] = 'redeployed';
    time = 1501;
    // The last one stands while the next is read; then the new one.
    expect(read(await vouched.json()).integrity.candidates).toBe(sha384('the list of candidates'));
    // The read goes on in the background: the next requests get the new list once it is in.
    for (let tries = 0; tries < 100; tries += 1) {
      if (read(await vouched.json()).integrity.candidates === sha384('redeployed')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(read(await vouched.json()).integrity.candidates).toBe(sha384('redeployed'));
  });

  it('vouches for a dist/ remote as soon as it answers again, never from a stale failure', async () => {
    let time = 1;
    delete lists['http://localhost:3002/integrity.json'];
    const vouched = createVouchedRemotes({ remotes, fetchImpl, now: () => time });
    expect(read(await vouched.json()).integrity.employers).toBeUndefined();
    lists['http://localhost:3002/integrity.json'] = 'the list of employers';
    time = 301;
    expect(read(await vouched.json()).integrity.employers).toBe(sha384('the list of employers'));
  });

  it('vouches for no dist/ list past 2 MB, and reads no further', async () => {
    lists['http://localhost:3002/integrity.json'] = 'x'.repeat(2 * 1024 * 1024 + 1);
    const config = read(await createVouchedRemotes({ remotes, fetchImpl }).json());
    expect(config.integrity.employers).toBeUndefined();
    expect(config.integrity.candidates).toBe(sha384('the list of candidates'));
  });

  it('waits for a dist/ remote that still hangs once per read, not on every request meanwhile', async () => {
    let time = 1;
    let calls = 0;
    const hanging = /** @type {typeof fetch} */ (
      (url, init) => {
        if (!String(url).includes(':3002/')) return fetchImpl(url, init);
        calls += 1;
        // The first read fails at once; the next hangs until it is aborted.
        if (calls === 1) return Promise.resolve(new Response('', { status: 503 }));
        return new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('x'))));
      }
    );
    const vouched = createVouchedRemotes({ remotes, fetchImpl: hanging, now: () => time });
    await vouched.json();
    time = 301;
    await vouched.json();
    const started = Date.now();
    for (let request = 0; request < 3; request += 1) await vouched.json();
    expect(Date.now() - started).toBeLessThan(250);
    expect(calls).toBe(2);
  });

  it('holds no entry back for a dist/ remote whose server does not answer, and says nothing of it', async () => {
    const hanging = /** @type {typeof fetch} */ (
      (url, init) =>
        String(url).includes(':3002/')
          ? new Promise((_resolve, reject) =>
              init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
            )
          : fetchImpl(url, init)
    );
    const vouched = createVouchedRemotes({ remotes, fetchImpl: hanging });
    const started = Date.now();
    const config = read(await vouched.json());
    expect(Date.now() - started).toBeLessThan(1500);
    expect(config.integrity.employers).toBeUndefined();
    expect(config.integrity.candidates).toBe(sha384('the list of candidates'));
  });
});

describe('the server-rendered HTML the document server may paste', () => {
  /** @param {{ layout: import('@nativegtm/store/layout').StoreLayout, id: string }} release */
  const recorded = ({ layout, id }) => ({
    release: id,
    integrity: sha384(fs.readFileSync(path.join(layout.release(id), 'ssr/manifest.json'), 'utf8')),
  });

  it("is a live release's through the manifest its record names, and a dist/ remote's unchecked", () => {
    const live = jobsRelease({ live: true });
    const vouched = createVouchedRemotes({ remotes, releasesDir: store, fetchImpl });
    expect(vouched.serverRendered('jobs')).toEqual({ manifests: [recorded(live)] });
    expect(vouched.serverRendered('employers')).toBeUndefined();
    // Served from a folder of its own (the gate's candidate): as a dist/ remote's.
    const gate = createVouchedRemotes({ remotes, releasesDir: store, servedFromFolders: ['jobs'], fetchImpl });
    expect(gate.serverRendered('jobs')).toBeUndefined();
  });

  it("is a chosen release's alone, live or not", () => {
    jobsRelease({ live: true });
    const chosen = jobsRelease({ buildId: 'b2' });
    const vouched = createVouchedRemotes({ remotes, releasesDir: store, fetchImpl });
    expect(vouched.serverRendered('jobs', chosen.id)).toEqual({ manifests: [recorded(chosen)] });
    expect(vouched.serverRendered('jobs', 'not-a-release')).toEqual({
      manifests: [{ release: 'not-a-release', integrity: undefined }],
    });
  });

  it('is either side of a promote for 2 s, for a remote server that sees it later, then the new side only', () => {
    let time = 1_000_000;
    const before = jobsRelease({ live: true });
    const vouched = createVouchedRemotes({ remotes, releasesDir: store, fetchImpl, now: () => time });
    expect(vouched.serverRendered('jobs')).toEqual({ manifests: [recorded(before)] });
    const after = jobsRelease({ live: true, buildId: 'b2' });
    // The live pointer is looked at every 200 ms.
    time += 250;
    expect(vouched.serverRendered('jobs')).toEqual({ manifests: [recorded(after), recorded(before)] });
    time += 1900;
    expect(vouched.serverRendered('jobs')).toEqual({ manifests: [recorded(after), recorded(before)] });
    time += 200;
    expect(vouched.serverRendered('jobs')).toEqual({ manifests: [recorded(after)] });
  });
});

const http = require('node:http');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const fc = require('fast-check');
const { MAX_BEACON_BYTES } = require('@nativegtm/contract/fieldData');
const { createFieldDataEndpoint } = require('./fieldDataEndpoint');
const { createFieldLabels } = require('./fieldLabels');
const { createFieldTokens } = require('./fieldTokens');
const { signedOncePerDocument } = require('./signedRecords');
const { createRecordWriter, readRecords } = require('./recordStore');
const { createStoreBudget, droppedIn } = require('./storeBudget');
const { createTokenRates, TOKEN_BURST } = require('./tokenRates');
const { createMetrics } = require('../observability/metrics');

/** @typedef {import('./recordStore').FieldRecord} FieldRecord */

const RELEASE = '0123456789abcdef';
const LIVE_BUILD = 'b1a6a8730b';
const view = { seq: 0, route: '/featured-jobs', remote: 'jobs', build: LIVE_BUILD, nav: 'document', device: 'mobile' };

/** @type {string} */
let storeDir;
beforeAll(() => {
  // A release store with one release of jobs, built as "c0ffee".
  storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-labels-'));
  fs.mkdirSync(path.join(storeDir, 'jobs', 'records'), { recursive: true });
  fs.writeFileSync(
    path.join(storeDir, 'jobs', 'records', `${RELEASE}.json`),
    JSON.stringify({ id: RELEASE, buildId: 'c0ffee' }),
  );
});
afterAll(() => fs.rmSync(storeDir, { recursive: true, force: true }));

describe('the field-data endpoint', () => {
  /** @type {http.Server} */
  let server;
  /** @type {ReturnType<typeof createMetrics>} */
  let metrics;
  /** @type {FieldRecord[]} */
  let records;
  /** @type {ReturnType<typeof createFieldTokens>} */
  let tokens;
  let time = Date.UTC(2026, 10, 26, 10);
  let url = '';

  /** @param {Partial<Parameters<typeof createFieldDataEndpoint>[0]>} [options] */
  async function start(options = {}) {
    metrics = createMetrics();
    records = [];
    tokens = createFieldTokens({ key: Buffer.from('k'.repeat(32)), now: () => time });
    const receive = createFieldDataEndpoint({
      labels: createFieldLabels({ storeDir, liveBuilds: () => new Map([['jobs', LIVE_BUILD]]) }),
      tokens,
      writer: { write: (written) => records.push(...written) },
      metrics,
      now: () => time,
      ...options,
    });
    server = http.createServer(receive);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    url = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}/_field-data`;
  }
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** @param {string | object} body */
  const post = async (body) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetch(url, { method: 'POST', body: text, headers: { 'Content-Type': 'application/json' } });
    return response.status;
  };

  /** Every label value of the field-data series the metrics port shows. */
  async function labelValues() {
    const text = await metrics.registry.metrics();
    /** @type {Record<string, Set<string>>} */
    const values = {};
    for (const line of text.split('\n')) {
      if (!/^nativegtm_(web_vital|page_views|browser_errors)/.test(line)) continue;
      for (const [, name, value] of line.matchAll(/(\w+)="([^"]*)"/g)) {
        if (name === 'le') continue;
        (values[/** @type {string} */ (name)] ??= new Set()).add(/** @type {string} */ (value));
      }
    }
    return values;
  }

  it("keeps a view's records with the site's labels: the release its build is, the remote that threw", async () => {
    await start();
    const status = await post({
      v: 1,
      first: true,
      view: { ...view, build: 'c0ffee' },
      vitals: [{ name: 'LCP', value: 4100, target: 'main h1', targetRemote: 'jobs' }],
      errors: [{ source: 'error', remote: 'shell' }],
    });
    expect(status).toBe(204);
    const base = {
      t: time,
      route: '/featured-jobs',
      remote: 'jobs',
      release: RELEASE,
      device: 'mobile',
      nav: 'document',
      signed: false,
    };
    expect(records).toEqual([
      { ...base, type: 'view' },
      { ...base, type: 'vital', name: 'LCP', value: 4100, target: 'main h1', targetRemote: 'jobs' },
      { ...base, type: 'error', remote: 'shell', release: 'live', source: 'error', page: 'jobs' },
    ]);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      `nativegtm_page_views_total{route="/featured-jobs",remote="jobs",release="${RELEASE}",device="mobile",nav="document"} 1`,
    );
    expect(text).toContain('nativegtm_browser_errors_total{remote="shell",release="live",source="error"} 1');
  });

  it('labels the live build as itself without a release of it, and counts what the site does not know as "other"', async () => {
    await start();
    await post({ v: 1, first: true, view, vitals: [], errors: [] });
    await post({
      v: 1,
      first: true,
      view: { ...view, route: '/admin', remote: 'payments', build: 'zzz' },
      vitals: [],
      errors: [],
    });
    await post({ v: 1, first: true, view: { ...view, build: 'an-old-build' }, vitals: [], errors: [] });
    expect(records.map(({ route, remote, release }) => [route, remote, release])).toEqual([
      ['/featured-jobs', 'jobs', LIVE_BUILD],
      ['other', 'other', 'other'],
      ['/featured-jobs', 'jobs', 'other'],
    ]);
  });

  it("drops an overriding browser's beacons, counted apart, and keeps a preview's", async () => {
    await start();
    const beacon = { v: 1, first: true, view, vitals: [{ name: 'LCP', value: 9000 }], errors: [] };
    expect(await post({ ...beacon, token: tokens.issue({ cohort: 'override', network: '198.51.100.0/24' }) })).toBe(
      204,
    );
    expect(records).toEqual([]);
    const text = await metrics.registry.metrics();
    expect(text).toContain('nativegtm_field_data_beacons_total{outcome="override"} 1');
    expect(text).not.toMatch(/^nativegtm_page_views_total/m);
    expect(await post({ ...beacon, token: tokens.issue({ cohort: 'preview', network: '198.51.100.0/24' }) })).toBe(204);
    expect(records.map((record) => [record.type, record.cohort])).toEqual([
      ['view', 'preview'],
      ['vital', 'preview'],
    ]);
  });

  it('refuses a body over its size unread, and one that is not a beacon, with a 4xx', async () => {
    await start();
    expect(await post('x'.repeat(MAX_BEACON_BYTES + 1))).toBe(413);
    expect(await post('{"v":1}')).toBe(400);
    expect(records).toEqual([]);
    const text = await metrics.registry.metrics();
    expect(text).toContain('nativegtm_field_data_beacons_total{outcome="oversized"} 1');
    expect(text).toContain('nativegtm_field_data_beacons_total{outcome="malformed"} 1');
  });

  it('answers junk with a 4xx or a 204, never a 5xx, and never makes a label the site does not know', async () => {
    await start({ unsignedPerSecond: 1e9 });
    const known = {
      route: ['/', '/employers', '/featured-jobs', '/coming-soon', 'not-found', 'other'],
      remote: ['candidates', 'employers', 'jobs', 'comingSoon', 'shell', 'other'],
      release: [RELEASE, LIVE_BUILD, 'live', 'other'],
    };
    const anything = fc.oneof(fc.string(), fc.jsonValue(), fc.string({ minLength: 60, maxLength: 200 }));
    const junkView = fc.record({
      seq: fc.oneof(fc.nat(30), anything),
      route: fc.oneof(fc.constantFrom(...known.route, '/x', '../../etc'), anything),
      remote: fc.oneof(fc.constantFrom(...known.remote, 'payments'), anything),
      build: fc.oneof(fc.constantFrom(LIVE_BUILD, 'c0ffee', 'nope'), anything),
      nav: fc.oneof(fc.constantFrom('document', 'navigation'), anything),
      device: fc.oneof(fc.constantFrom('mobile', 'desktop'), anything),
    });
    const body = fc.oneof(
      fc
        .record({
          v: fc.oneof(fc.constant(1), anything),
          first: fc.boolean(),
          token: anything,
          view: junkView,
          vitals: fc.array(
            fc.record({
              name: fc.constantFrom('LCP', 'INP', 'CLS', 'x'),
              value: fc.double(),
              targetRemote: anything,
              target: anything,
            }),
          ),
          errors: fc.array(
            fc.record({ source: fc.constantFrom('error', 'rejection', 'x'), remote: anything, build: anything }),
          ),
        })
        .map((value) => JSON.stringify(value)),
      fc.string({ unit: 'binary' }),
      fc.json(),
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const status = await post(text);
        expect([204, 400, 413]).toContain(status);
      }),
      { numRuns: 300 },
    );
    const values = await labelValues();
    for (const [name, allowed] of Object.entries(known)) {
      for (const value of values[name] ?? []) expect(allowed).toContain(value);
    }
    // 300 requests: about 3 s alone, more beside other suites (npm run check runs two packages' tasks at once).
  }, 30_000);

  it('takes 2,000 beacons a second from one address, as behind a CDN', async () => {
    await start();
    const beacon = JSON.stringify({ v: 1, first: true, view, vitals: [{ name: 'LCP', value: 1200 }], errors: [] });
    const statuses = [];
    for (let batch = 0; batch < 20; batch += 1) {
      statuses.push(...(await Promise.all(Array.from({ length: 100 }, () => post(beacon)))));
      time += 50;
    }
    expect(statuses.filter((status) => status !== 204)).toEqual([]);
  }, 30_000);

  it('refuses unsigned beacons past their rate with 429, and takes none of it from signed ones', async () => {
    await start({ unsignedPerSecond: 100 });
    const beacon = { v: 1, first: true, view, vitals: [], errors: [] };
    // The clock stands still: no refill.
    const statuses = await Promise.all(Array.from({ length: 150 }, () => post(beacon)));
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    expect(await post({ ...beacon, token: tokens.issue({ cohort: 'preview', network: '198.51.100.0/24' }) })).toBe(204);
    time += 1000;
    expect(await post(beacon)).toBe(204);
    expect(await metrics.registry.metrics()).toContain('nativegtm_field_data_beacons_total{outcome="limited"} 50');
  });

  it("caps each token's beacons, counted apart, in a bounded map of tokens", async () => {
    await start({ tokenRates: createTokenRates({ now: () => time, maxTokens: 2 }) });
    const beacon = { v: 1, first: true, view, vitals: [], errors: [] };
    const flooder = tokens.issue({ cohort: 'canary:jobs', network: '198.51.100.0/24' });
    const statuses = await Promise.all(
      Array.from({ length: TOKEN_BURST + 30 }, () => post({ ...beacon, token: flooder })),
    );
    expect(statuses.filter((status) => status === 204)).toHaveLength(TOKEN_BURST);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    // Another document's token is not held back by it, and unsigned beacons neither.
    expect(await post({ ...beacon, token: tokens.issue({ cohort: 'control:jobs', network: '198.51.100.0/24' }) })).toBe(
      204,
    );
    expect(await post(beacon)).toBe(204);
    expect(await metrics.registry.metrics()).toContain(
      'nativegtm_field_data_beacons_total{outcome="limited-signed"} 30',
    );
    // It refills slowly: one beacon every two seconds.
    time += 2000;
    expect(await post({ ...beacon, token: flooder })).toBe(204);
    expect(await post({ ...beacon, token: flooder })).toBe(429);
  });

  it('refuses every beacon past the store budget with 429, keeps none of it, and marks the drop', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-budget-'));
    try {
      const budget = createStoreBudget({ dir, name: 'test-1', hourBytes: 4096, totalBytes: 1 << 20, now: () => time });
      const writer = createRecordWriter({ dir, budget, now: () => time });
      await start({ budget, writer, unsignedPerSecond: 1e9 });
      const beacon = { v: 1, first: true, view, vitals: [{ name: 'LCP', value: 900 }], errors: [] };
      /** @type {number[]} */
      const statuses = [];
      for (let round = 0; round < 10; round += 1) {
        statuses.push(...(await Promise.all(Array.from({ length: 20 }, () => post(beacon)))));
      }
      statuses.push(
        await post({ ...beacon, token: tokens.issue({ cohort: 'canary:jobs', network: '198.51.100.0/24' }) }),
      );
      writer.flush();
      expect(statuses.slice(0, 5)).toEqual([204, 204, 204, 204, 204]);
      expect(statuses.at(-1)).toBe(429);
      const refused = statuses.filter((status) => status === 429).length;
      expect(refused).toBeGreaterThan(100);
      expect(await metrics.registry.metrics()).toContain(
        `nativegtm_field_data_beacons_total{outcome="over-budget"} ${refused}`,
      );
      let bytes = 0;
      for (const file of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (file.isFile()) bytes += fs.statSync(path.join(file.parentPath, file.name)).size;
      }
      // The budget, and at most the beacon that reached it.
      expect(bytes).toBeLessThan(4096 + 1024);
      let kept = 0;
      for await (const record of readRecords(dir, { since: 0, until: time })) if (record.type === 'view') kept += 1;
      expect(kept).toBe(statuses.length - refused);
      expect(droppedIn(dir, { since: time - 1000, until: time })).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets a flood without proof, with forged or replayed tokens, change nothing a decision reads', async () => {
    await start({ unsignedPerSecond: 1e9 });
    // Ten real visitors of private documents, each with its document's token.
    for (let visitor = 0; visitor < 10; visitor += 1) {
      const token = tokens.issue({
        cohort: visitor % 2 ? 'canary:jobs' : 'control:jobs',
        network: `198.51.${visitor}.0/24`,
      });
      await post({
        v: 1,
        token,
        first: true,
        view,
        vitals: [{ name: 'LCP', value: 1000 + visitor * 100 }],
        errors: [],
      });
    }
    const signed = () => {
      const keep = signedOncePerDocument();
      const lcp = records.filter(keep).flatMap((record) => (record.type === 'vital' ? [record.value] : []));
      return {
        views: records.filter(signedOncePerDocument()).filter((record) => record.type === 'view').length,
        lcp: lcp.sort((a, b) => a - b),
      };
    };
    const before = signed();
    expect(before.views).toBe(10);
    // Each record carries the cohort its token was signed for.
    const cohorts = records.filter((record) => record.type === 'view').map((record) => record.cohort);
    expect(cohorts.filter((cohort) => cohort === 'canary:jobs')).toHaveLength(5);
    expect(cohorts.filter((cohort) => cohort === 'control:jobs')).toHaveLength(5);
    // And its network's keyed hash, never the address: ten networks, ten hashes.
    const nets = records.filter((record) => record.type === 'view').map((record) => record.net);
    expect(new Set(nets).size).toBe(10);
    expect(nets.every((net) => /^[0-9a-f]{16}$/.test(String(net)))).toBe(true);

    const poor = {
      v: 1,
      first: true,
      view,
      vitals: [{ name: 'LCP', value: 30_000 }],
      errors: [{ source: 'error', remote: 'jobs' }],
    };
    const forged = `${'f'.repeat(16)}.${Math.floor(time / 1000) + 3600}.canary:jobs.${'0'.repeat(16)}.-.${'A'.repeat(43)}`;
    const stolen = tokens.issue({ cohort: 'control:jobs', network: '198.51.100.0/24' });
    // A real token moved to the other side: its signature no longer fits.
    const switched = stolen.replace('.control:jobs.', '.canary:jobs.');
    await post({ ...poor, token: stolen });
    const expiredTokens = createFieldTokens({ key: Buffer.from('k'.repeat(32)), now: () => time - 2 * 24 * 3600_000 });
    const flood = [
      ...Array.from({ length: 2000 }, () => poor),
      ...Array.from({ length: 200 }, () => ({ ...poor, token: forged })),
      ...Array.from({ length: 200 }, () => ({
        ...poor,
        token: expiredTokens.issue({ cohort: 'canary:jobs', network: '198.51.100.0/24' }),
      })),
      ...Array.from({ length: 200 }, () => ({ ...poor, token: switched })),
      // One real token, replayed: its holder's first set counts, no more.
      ...Array.from({ length: 200 }, () => ({ ...poor, token: stolen })),
      ...Array.from({ length: 200 }, (_, seq) => ({ ...poor, token: stolen, view: { ...view, seq: seq + 1 } })),
    ];
    for (let start = 0; start < flood.length; start += 200) {
      const statuses = await Promise.all(flood.slice(start, start + 200).map((beacon) => post(beacon)));
      expect(statuses.every((status) => status === 204)).toBe(true);
    }
    const after = signed();
    // The stolen token's holder added its one document: at most MAX_VIEWS_PER_DOCUMENT views, one LCP each.
    expect(after.views).toBeLessThanOrEqual(before.views + 20);
    const withoutHolder = records
      .filter(signedOncePerDocument())
      .filter((record) => record.type === 'vital' && record.doc !== stolen.split('.')[0])
      .map((record) => (record.type === 'vital' ? record.value : 0))
      .sort((a, b) => a - b);
    expect(withoutHolder).toEqual(before.lcp);
  }, 30_000);
});

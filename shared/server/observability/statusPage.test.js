/** @jest-environment node */
// The status page over HTTP, from a metrics server on a temporary record store and release store, with a clock the
// test moves.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRecordWriter } = require('../fieldData/recordStore');
const { recordMaker } = require('../fieldData/recordFixtures');
const { writeLivePointer } = require('@nativegtm/store/livePointer');
const { RELEASE_MANIFEST } = require('@nativegtm/store/releaseInStore');
const { storeLayout } = require('@nativegtm/store/layout');
const { createMetrics } = require('./metrics');
const { startMetricsServer } = require('./metricsServer');
const { createStatusPage } = require('./statusPage');
const { integrityFailuresIn } = require('./integrityFailures');

/** @typedef {import('../fieldData/recordStore').FieldRecord} FieldRecord */

const NOW = Date.UTC(2026, 10, 26, 10, 0, 0);
const MINUTE = 60_000;
const C1 = '1f0e9d8c7b6a5f4e';
const C2 = '3a7c9e1b5d2f4a6c';
const E1 = 'b4d2c9a1e7f30a55';
const BUILD = 'mgq3x0k2-1a2b3c4d';

/** @type {string} */
let root;
/** @type {{ fieldDataDir: string, releasesDir: string, remotes: { remote: string, route: string, dir: string }[] }} */
let stores;
let clock = NOW;

/**
 * @param {string} remote
 * @param {string[]} ids
 * @param {string} [live]
 */
function releases(remote, ids, live) {
  const layout = storeLayout(stores.releasesDir, remote);
  for (const id of ids) {
    fs.mkdirSync(layout.release(id), { recursive: true });
    fs.writeFileSync(path.join(layout.release(id), RELEASE_MANIFEST), '{}');
  }
  const lines = ids.map((id, index) =>
    JSON.stringify({ at: `2026-11-2${index}T09:00:00Z`, action: 'promote', id, from: ids[index - 1] ?? null }),
  );
  fs.writeFileSync(layout.history, lines.map((line) => `${line}\n`).join(''));
  if (live) writeLivePointer(layout, live);
  return layout;
}

const made = recordMaker({ release: C2 });
/** @param {number} minutesAgo */
const ago = (minutesAgo) => ({ t: NOW - minutesAgo * MINUTE });
/**
 * @param {number} minutesAgo
 * @param {import('../fieldData/recordFixtures').Labels} [labels]
 */
const view = (minutesAgo, labels = {}) => made.view({ ...ago(minutesAgo), ...labels });
/**
 * @param {number} minutesAgo
 * @param {import('@nativegtm/contract/fieldData').VitalName} name
 * @param {number} value
 * @param {import('../fieldData/recordFixtures').Labels} [labels]
 */
const vital = (minutesAgo, name, value, labels = {}) => made.vital(name, value, { ...ago(minutesAgo), ...labels });
/**
 * @param {number} minutesAgo
 * @param {import('../fieldData/recordFixtures').Labels} [labels]
 */
const error = (minutesAgo, labels = {}) => made.error({ ...ago(minutesAgo), ...labels });

/**
 * Writes records as the servers do: each into the hour it was received in (its `t`).
 * @param {({ t: number } & Record<string, unknown>)[]} records
 */
async function write(records) {
  let received = 0;
  const writer = createRecordWriter({ dir: stores.fieldDataDir, now: () => received });
  for (const record of [...records].sort((a, b) => a.t - b.t)) {
    received = record.t;
    writer.write([/** @type {FieldRecord} */ (/** @type {unknown} */ (record))]);
  }
  await writer.flush();
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'status-page-'));
  const comingSoon = path.join(root, 'coming-soon-mfe');
  fs.mkdirSync(path.join(comingSoon, 'dist/ssr'), { recursive: true });
  fs.writeFileSync(
    path.join(comingSoon, 'dist/ssr/manifest.json'),
    JSON.stringify({ name: 'comingSoon', buildId: BUILD }),
  );
  stores = {
    fieldDataDir: path.join(root, 'field-data'),
    releasesDir: path.join(root, 'releases'),
    remotes: [
      { remote: 'candidates', route: '/', dir: path.join(root, 'candidates-mfe') },
      { remote: 'employers', route: '/employers', dir: path.join(root, 'employers-mfe') },
      { remote: 'jobs', route: '/featured-jobs', dir: path.join(root, 'jobs-mfe') },
      { remote: 'comingSoon', route: '/coming-soon', dir: comingSoon },
    ],
  };
  releases('candidates', [C1, C2], C2);
  releases('employers', [E1], E1);
  // A pointer to a release whose files are gone.
  fs.mkdirSync(path.join(stores.releasesDir, 'jobs'), { recursive: true });
  fs.symlinkSync('0123456789abcdef', storeLayout(stores.releasesDir, 'jobs').live);
  await write([
    // The live release of candidates, 4 views: LCP sorted 1000 2000 3000 5000, nearest rank 3: 3.0 s, needs
    // improvement. INP 100 150: rank 2, 150 ms, good. One error: 250 per 1,000 views.
    ...[1, 2, 3, 4].map(() => view(10)),
    ...[3000, 1000, 5000, 2000].map((value) => vital(10, 'LCP', value)),
    vital(12, 'INP', 100),
    vital(12, 'INP', 150),
    vital(12, 'CLS', 0.02),
    error(10),
    // More than an hour ago: not counted (it would make p75 5.0 s).
    view(61),
    vital(61, 'LCP', 9000),
    // The previous release, 2 views 50 minutes ago: LCP 1200 1800, rank 2: 1.8 s, good.
    view(50, { release: C1 }),
    view(50, { release: C1 }),
    vital(50, 'LCP', 1200, { release: C1 }),
    vital(50, 'LCP', 1800, { release: C1 }),
    // comingSoon serves its dist/ build: one view, LCP 4.5 s, poor.
    view(30, { route: '/coming-soon', remote: 'comingSoon', release: BUILD }),
    vital(30, 'LCP', 4500, { route: '/coming-soon', remote: 'comingSoon', release: BUILD }),
    // The shell threw once: per 1,000 of the hour's 7 views, 142.9.
    error(20, { remote: 'shell', release: 'live', source: 'rejection' }),
  ]);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A jobs release whose files this node's browsers refused. */
const REFUSED_RELEASE = 'abcdefabcdefabcd';

describe('the status page on the metrics port', () => {
  /** @type {{ url: string, stop: () => Promise<void> }} */
  let server;
  /** @type {string} */
  let statusUrl;
  beforeAll(async () => {
    const metrics = createMetrics();
    // This node's browsers refused two files of a jobs release, and one the labels could not name.
    metrics.integrityFailure('jobs', REFUSED_RELEASE);
    metrics.integrityFailure('jobs', REFUSED_RELEASE);
    metrics.integrityFailure('jobs', 'other');
    const statusPage = createStatusPage({
      ...stores,
      now: () => clock,
      integrityFailures: async () => integrityFailuresIn(await metrics.registry.metrics()),
    });
    server = await startMetricsServer(metrics, { port: 0, statusPage });
    statusUrl = server.url.replace(/\/metrics$/, '/status');
  });
  afterAll(() => server.stop());

  it('is one HTML document under a policy that allows nothing but its own style and data: images', async () => {
    const response = await fetch(statusUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = String(response.headers.get('content-security-policy'));
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; img-src data:; /);
    const html = await response.text();
    expect(html).not.toMatch(/<script|style="|<link rel="stylesheet"|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const hash = require('node:crypto').createHash('sha256').update(style).digest('base64');
    expect(csp).toContain(`style-src 'sha256-${hash}'`);
  });

  it("shows each remote's live and previous release with the hour's exact p75 and error rate", async () => {
    const html = await (await fetch(statusUrl)).text();
    for (const remote of ['candidates', 'employers', 'jobs', 'comingSoon']) expect(html).toContain(`>${remote} <`);
    expect(html).toContain(`live <code title="${C2}">${C2.slice(0, 8)}</code>`);
    expect(html).toContain(`previous <code title="${C1}">${C1.slice(0, 8)}</code>`);
    const table = html.slice(html.indexOf('<table>'), html.indexOf('</table>'));
    const rows = [...table.matchAll(/<tr><th scope="row">([^<]+)<\/th>(.*?)<\/tr>/g)].map(([, name, cells]) => [
      name,
      String(cells)
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ]);
    expect(rows).toEqual([
      ['Views', '4 2'],
      ['LCP p75', '3.0 s needs improvement 1.8 s good'],
      ['INP p75', '150 ms good no values'],
      ['CLS p75', '0.02 good no values'],
      ['Errors per 1,000 views', '250.0 1 error 0.0 0 errors'],
    ]);
    expect(html).toContain('<strong>7</strong> views');
    expect(html).toContain('Shell errors: <strong>142.9 per 1,000 views (1)</strong>');
  });

  it('says what it cannot show: no views, a broken live pointer, a remote served from dist/', async () => {
    const html = await (await fetch(statusUrl)).text();
    const card = (/** @type {string} */ remote) =>
      html.slice(
        html.indexOf(`id="remote-${remote}"`),
        html.indexOf('</section>', html.indexOf(`id="remote-${remote}"`)),
      );
    expect(card('employers')).toContain('No views of the live release in the last hour.');
    expect(card('employers')).toContain('no previous release');
    expect(card('jobs')).toContain('the live pointer names release 0123456789abcdef, whose files are missing');
    expect(card('comingSoon')).toContain(
      `live: the build in dist/, <code title="${BUILD}">${BUILD.slice(0, 8)}</code>`,
    );
    expect(card('comingSoon')).toMatch(/4\.5 s<\/span> <span class="rating poor">poor<\/span>/);
    // Charts for the remotes with views: LCP, INP, CLS and errors.
    expect(card('candidates').match(/<svg viewBox="0 0 300 132" role="img"/g)).toHaveLength(4);
    expect(card('candidates')).toContain('aria-label="LCP p75 per 5 minutes, candidates"');
    expect(card('employers')).not.toContain('role="img"');
  });

  it("shows each remote's files refused for their integrity on this node, and says when there are none", async () => {
    const html = await (await fetch(statusUrl)).text();
    const card = (/** @type {string} */ remote) =>
      html.slice(
        html.indexOf(`id="remote-${remote}"`),
        html.indexOf('</section>', html.indexOf(`id="remote-${remote}"`)),
      );
    expect(card('jobs')).toContain(
      `<p class="problem">3 files refused for the integrity the build listed, on this node since its server started ` +
        `(<code title="${REFUSED_RELEASE}">abcdefab</code>: 2, other: 1): visitors got the error screen.`,
    );
    expect(card('candidates')).toContain(
      '<p class="note">No file refused for its integrity on this node since its server started.</p>',
    );
  });

  it('reads the records again only once its figures are 20 s old', async () => {
    const before = await (await fetch(statusUrl)).text();
    await write([...[1, 2, 3, 4, 5, 6].map(() => vital(5, 'LCP', 9000))]);
    clock = NOW + 10_000;
    expect(await (await fetch(statusUrl)).text()).toBe(before);
    clock = NOW + 21_000;
    const after = await (await fetch(statusUrl)).text();
    // LCP now sorted 1000 2000 3000 5000 9000 × 6: rank ceil(7.5) = 8, 9.0 s, poor.
    expect(after).toMatch(/LCP p75<\/th><td[^>]*><span class="value">9\.0 s<\/span> <span class="rating poor">poor/);
  });

  it('answers HEAD without a body, and names both paths on a 404', async () => {
    const head = await fetch(statusUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const missing = await fetch(statusUrl.replace(/status$/, 'nope'));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('Not found: metrics are at /metrics, the field-data status page at /status\n');
    expect((await fetch(statusUrl, { method: 'POST' })).status).toBe(404);
  });
});

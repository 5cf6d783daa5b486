// The field-data endpoint on both servers, over HTTP: the built-in server keeps beacons itself; nginx passes them to
// the collector beside it. Either way they end up as records in FIELD_DATA_DIR, labelled with the release the site
// serves, and counted on the metrics port. (What browsers send is fieldDataBrowser.test.ts.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployables } from '@nativegtm/server/deployables';
import { readRecords, type FieldRecord } from '@nativegtm/server/fieldData/recordStore';
import { FIELD_DATA_PATH, MAX_BEACON_BYTES } from '@nativegtm/contract/fieldData';
import { eventually } from '../support/eventually';
import { startNginx } from '../support/nginxServer';
import { fieldDataDir as builtInFieldData, ports as builtInPorts } from '../support/site';

/** Port plan: B+115..B+119 nginx (see testSite.js). */
const NGINX_OFFSET = 15 + 100;

const remotes = deployables.filter((d) => d.role === 'remote');

/** A beacon for the jobs page, as the shell's collector sends it. */
const beacon = (build: string, extra: object = {}) =>
  JSON.stringify({
    v: 1,
    first: true,
    view: { seq: 0, route: '/featured-jobs', remote: 'jobs', build, nav: 'document', device: 'desktop' },
    vitals: [
      { name: 'LCP', value: 1234 },
      { name: 'CLS', value: 0.3, target: 'main > ul', targetRemote: 'jobs' },
    ],
    errors: [{ source: 'error', remote: 'jobs', build }],
    ...extra,
  });

async function post(origin: string, body: string): Promise<number> {
  const response = await fetch(`${origin}${FIELD_DATA_PATH}`, {
    method: 'POST',
    body,
    // A visitor behind a proxy: the servers read its network from the address, never keep it.
    headers: { 'Content-Type': 'application/json', Cookie: 'visitor=1', 'X-Forwarded-For': '203.0.113.9' },
  });
  return response.status;
}

/** The live build of jobs, as the composed document names it. */
async function liveBuild(origin: string): Promise<string> {
  const html = await (await fetch(`${origin}/featured-jobs`)).text();
  return /data-remote="jobs" data-build="([^"]+)"/.exec(html)?.[1] ?? '';
}

/**
 * The records of the one beacon a test posted since `since`, among those of every spec sharing the site: a beacon's
 * records are written together (one `t`), unsigned (no document's token), and this one's LCP is 1234 ms, which no
 * browser's beacon carries with them.
 */
async function beaconRecords(dir: string, since: number): Promise<FieldRecord[]> {
  const list: FieldRecord[] = [];
  for await (const record of readRecords(dir, { since })) if (!record.signed) list.push(record);
  const lcp = list.find((record) => record.type === 'vital' && record.name === 'LCP' && record.value === 1234);
  return lcp ? list.filter((record) => record.t === lcp.t && record.route === lcp.route) : [];
}

describe.each([
  ['the built-in server', 'built-in'],
  ['nginx and its collector', 'nginx'],
])('field data through %s', (_name, kind) => {
  let origin = '';
  let dir = '';
  let metricsUrl: string | undefined;
  let stop = async () => {};

  beforeAll(async () => {
    if (kind === 'built-in') {
      origin = `http://localhost:${builtInPorts.shell}`;
      dir = builtInFieldData;
      return;
    }
    const ports = Object.fromEntries(Object.entries(builtInPorts).map(([name, port]) => [name, port + NGINX_OFFSET]));
    const folder = mkdtempSync(join(tmpdir(), 'nativegtm-field-nginx-'));
    const remotesFile = join(folder, 'remotes.json');
    writeFileSync(
      remotesFile,
      JSON.stringify(
        Object.fromEntries(remotes.map((d) => [d.remote, `http://127.0.0.1:${ports[d.name]}/mf-manifest.json`])),
      ),
    );
    dir = join(folder, 'field-data');
    const nginx = await startNginx({ ports, remotesFile, fieldDataDir: dir });
    origin = `http://127.0.0.1:${ports.shell}`;
    metricsUrl = nginx.collectorMetrics;
    stop = async () => {
      await nginx.stop();
      rmSync(folder, { recursive: true, force: true });
    };
  });
  afterAll(() => stop());

  it("keeps a beacon's records with the release the site serves, and nothing of the visitor", async () => {
    const since = Date.now();
    const build = await liveBuild(origin);
    expect(build).not.toBe('');
    expect(await post(origin, beacon(build))).toBe(204);
    const kept = await eventually(
      () => beaconRecords(dir, since),
      (list) => list.length >= 4,
      { timeoutMs: 5000, what: 'records' },
    );
    const labels = { route: '/featured-jobs', remote: 'jobs', release: build, device: 'desktop', nav: 'document' };
    expect(kept).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ...labels, type: 'view', signed: false }),
        expect.objectContaining({ ...labels, type: 'vital', name: 'LCP', value: 1234 }),
        expect.objectContaining({ ...labels, type: 'vital', name: 'CLS', target: 'main > ul', targetRemote: 'jobs' }),
        expect.objectContaining({ ...labels, type: 'error', source: 'error', page: 'jobs' }),
      ]),
    );
    // No address, agent or cookie reaches a record.
    expect(JSON.stringify(kept)).not.toMatch(/127\.0\.0\.1|203\.0\.113|visitor|node|Mozilla/);
    if (metricsUrl) {
      expect(await (await fetch(metricsUrl)).text()).toContain(
        `nativegtm_page_views_total{route="/featured-jobs",remote="jobs",release="${build}",device="desktop",nav="document"}`,
      );
    }
  });

  it('refuses an oversized body and one that is not a beacon, and counts a build it does not serve as "other"', async () => {
    expect(await post(origin, 'x'.repeat(MAX_BEACON_BYTES + 10))).toBe(413);
    expect(await post(origin, '{"v":1,"view":{}}')).toBe(400);
    const since = Date.now();
    expect(await post(origin, beacon('not-a-build'))).toBe(204);
    const kept = await eventually(
      () => beaconRecords(dir, since),
      (list) => list.length >= 4,
      { timeoutMs: 5000, what: 'records' },
    );
    expect(new Set(kept.map((record) => (record.type === 'error' ? record.page : record.release)))).toEqual(
      new Set(['other', 'jobs']),
    );
  });

  it('takes beacons by POST only', async () => {
    const response = await fetch(`${origin}${FIELD_DATA_PATH}`);
    expect([403, 405]).toContain(response.status);
  });
});

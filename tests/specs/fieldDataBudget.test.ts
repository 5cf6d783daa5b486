// A flood of signed beacons cannot fill the disk, through both servers as operators run them: `npm start` (two
// workers, two writers), and nginx with `npm run collect` beside it, each given a small field-data budget in its
// environment. The store stops growing at the budget, pages are served as before, and a release command writes to
// the same disk. (The budget's rules: shared/server/fieldData/storeBudget.test.js.)
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { portsFrom } from '@nativegtm/contract/ports';
import { pages } from '@nativegtm/contract/pages';
import { shippedRemotes } from '@nativegtm/contract/remotesConfig';
import { FIELD_DATA_PATH } from '@nativegtm/contract/fieldData';
import { deployables, repoRoot } from '@nativegtm/server/deployables';
import { createFieldTokens } from '@nativegtm/server/fieldData/fieldTokens';
import { startNginx } from '../support/nginxServer';
import { startNpmStart } from '../support/npmStart';
import { publish, releaseScratch, type ReleaseScratch } from '../support/releaseSites';

const base = Number(process.env.TEST_PORT_BASE || 4100);
/** Port plan: B+192..B+196 npm start, B+197..B+201 nginx (see testSite.js); metrics and collector on any free port. */
const SITE_BASE = base + 192;
const NGINX_BASE = base + 197;

const SECRET = 'a field-data key of this test only, 32 bytes or more';
const MAX_HOUR = 32 * 1024;
const MAX = 40 * 1024;
const budgetEnv = { FIELD_DATA_SECRET: SECRET, FIELD_DATA_MAX_HOUR: '32KB', FIELD_DATA_MAX: '40KB' };
/** What a writer may add past the budget: what it wrote before its own count reached it, one beacon's records. */
const BEACON_SLACK = 8 * 1024;

const tokens = createFieldTokens({ key: Buffer.from(SECRET) });
const jobs = deployables.find((d) => d.remote === 'jobs')!;

/** A large honest-looking beacon of a canary's document: a view, five vitals, ten errors. */
const beacon = (token: string, seq: number) =>
  JSON.stringify({
    v: 1,
    token,
    first: true,
    view: { seq, route: '/featured-jobs', remote: 'jobs', build: 'b', nav: 'document', device: 'desktop' },
    vitals: ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'].map((name) => ({
      name,
      value: name === 'CLS' ? 0.4 : 4000,
      target: 'main > section.jobs-list > ul > li:nth-child(3) > a.job-card',
      targetRemote: 'jobs',
    })),
    errors: Array.from({ length: 10 }, () => ({ source: 'error', remote: 'jobs', build: 'b' })),
  });

/** Posts one beacon of a token; its status. */
const post = (origin: string, token: string, seq: number) =>
  fetch(`${origin}${FIELD_DATA_PATH}`, {
    method: 'POST',
    body: beacon(token, seq % 20),
    headers: { 'Content-Type': 'application/json' },
  }).then((response) => response.status);

/** Posts `count` beacons of one token, twenty at a time; their statuses. */
async function flood(origin: string, token: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 20) {
    const batch = Array.from({ length: Math.min(20, count - sent) }, (_, index) => post(origin, token, sent + index));
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}

/** The bytes of the records in the store's hour folders. */
function storeBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const file of readdirSync(join(dir, entry.name))) {
      if (file.endsWith('.ndjson')) bytes += statSync(join(dir, entry.name, file)).size;
    }
  }
  return bytes;
}

/** One counter's value on a metrics page. */
async function counter(metricsUrl: string, series: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return Number(line?.split(' ')[1] ?? 0);
}

/** `npm run collect` in its own process, as an operator runs it beside nginx; resolves once it listens. */
async function startCollectProcess(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['shared/server/commands/collect.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      COLLECTOR_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const started = await new Promise<{ url: string; metrics: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run collect did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((entry) => entry.includes('"msg":"collecting"'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm run collect exited (${code}):\n${output}`)));
  });
  return {
    port: Number(new URL(started.url).port),
    metricsUrl: started.metrics,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

describe.each([
  ['the built-in server (npm start)', 'built-in', 2],
  ['nginx and npm run collect', 'nginx', 1],
])('a flood of signed beacons through %s', (_name, kind, writers) => {
  let scratch: ReleaseScratch;
  let origin = '';
  let metricsUrl = '';
  let stop = async () => {};

  beforeAll(async () => {
    scratch = releaseScratch(`field-budget-${kind}`);
    const env: Record<string, string> = { ...scratch.env, ...budgetEnv };
    if (kind === 'built-in') {
      const site = await startNpmStart({
        base: SITE_BASE,
        metricsPort: 0,
        workers: 2,
        fieldDataDir: env.FIELD_DATA_DIR,
        env,
      });
      const running = site.lines.find((line) => line.msg.startsWith('NativeGTM is running')) as unknown as {
        metrics: string;
      };
      origin = `http://localhost:${site.ports.shell}`;
      metricsUrl = running.metrics;
      stop = async () => {
        await site.stop();
      };
      return;
    }
    const ports = portsFrom(NGINX_BASE);
    const remotesFile = join(scratch.scratch, 'remotes.json');
    writeFileSync(
      remotesFile,
      JSON.stringify(shippedRemotes({ host: '127.0.0.1', portOf: (page) => ports[page.package]! })),
    );
    const collector = await startCollectProcess({ ...env, REMOTES_FILE: remotesFile });
    const nginx = await startNginx({ ports, remotesFile, collectorPort: collector.port }).catch(async (error) => {
      await collector.stop();
      throw error;
    });
    origin = `http://127.0.0.1:${ports.shell}`;
    metricsUrl = collector.metricsUrl;
    stop = async () => {
      await nginx.stop();
      await collector.stop();
    };
  }, 120_000);
  afterAll(async () => {
    await stop();
    // The scratch's store and records; npm start removes its own folder.
    rmSync(scratch.scratch, { recursive: true, force: true });
  });

  it('stops the store at its budget, keeps serving pages, and leaves the disk to a release', async () => {
    const dir = scratch.env.FIELD_DATA_DIR!;
    const flooder = tokens.issue({ cohort: 'canary:jobs', network: '198.51.100.0/24' });
    // Accepted until the budget, then refused with 429; never a 5xx. The first three go one at a time: twenty posted
    // at once reach the writers in any order, so which of them the budget refuses is not theirs to say.
    const opening = [];
    for (let seq = 0; seq < 3; seq += 1) opening.push(await post(origin, flooder, seq));
    expect(opening).toEqual([204, 204, 204]);
    const first = await flood(origin, flooder, 200);
    expect(first.filter((status) => status !== 204 && status !== 429)).toEqual([]);
    expect(first.filter((status) => status === 429).length).toBeGreaterThan(100);
    expect(await counter(metricsUrl, 'nativegtm_field_data_beacons_total{outcome="over-budget"}')).toBeGreaterThan(0);

    // Written out (a second's buffer) and measured again (every 2 s) by every writer.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const full = storeBytes(dir);
    expect(full).toBeGreaterThan(MAX_HOUR / 2);
    // Each writer stops at the budget by its own count: the store passes it by at most what the others wrote.
    expect(full).toBeLessThanOrEqual(writers * (MAX + BEACON_SLACK));

    // Another token, with its whole burst left: refused too, for the store, not for the token. Nothing grows.
    const second = await flood(origin, tokens.issue({ cohort: 'control:jobs', network: '198.51.100.0/24' }), 40);
    expect(second.every((status) => status === 429)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(storeBytes(dir)).toBe(full);

    // Documents flow as before.
    for (const page of pages) {
      const response = await fetch(`${origin}${page.route}`);
      expect(response.status).toBe(200);
    }
    // And the disk the records are on still takes a release.
    await publish(scratch, join(jobs.dir, 'dist'));
  }, 120_000);
});

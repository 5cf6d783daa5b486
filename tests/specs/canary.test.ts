import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { BUCKET_COOKIE, BUCKETS, newBucket, sideOf } from '@nativegtm/contract/canaryBuckets';
import { FIELD_DATA_CHUNK, FIELD_TOKEN_META } from '@nativegtm/contract/fieldData';
import { portsFrom } from '@nativegtm/contract/ports';
import { pages } from '@nativegtm/contract/pages';
import { shippedRemotes } from '@nativegtm/contract/remotesConfig';
import { deployables, repoRoot } from '@nativegtm/server/deployables';
import { readCanary } from '@nativegtm/server/releases/canaryInStore';
import { readLivePointer } from '@nativegtm/server/releases/livePointer';
import { storeLayout } from '@nativegtm/server/releases/storeLayout';
import { startSite } from '@nativegtm/server/startSite';
import { buildRemote } from '../support/buildRemote';
import { launchChromium } from '../support/chromium';
import { eventually } from '../support/eventually';
import { rawGet } from '../support/rawGet';
import { npmRun } from '../support/releaseCommands';
import { ports as testPorts, untilHydrated } from '../support/site';

// Canary releases as a page team runs them (docs/releasing.md): `npm run canary` against a store the built-in server
// reads, with real Chromium visitors whose field data decides each step. Steps of seconds, not minutes.

jest.setTimeout(300_000);

// Ports B+150..B+154: see tests/support/testSite.js.
const sitePorts = portsFrom(testPorts.shell! + 150);
const jobs = deployables.find((d) => d.remote === 'jobs')!;
const jobsPage = pages.find((page) => page.remote === 'jobs')!;
/** "Live within one second", with room for a loaded 2-core machine. */
const LIVE_BOUND_MS = 1000;
const COLLECTOR_CHUNK = new RegExp(`/${FIELD_DATA_CHUNK}\\.[0-9a-f]{10}\\.js$`);

let scratch: string;
let env: Record<string, string>;
let site: Awaited<ReturnType<typeof startSite>>;
let browser: Browser;
const layout = () => storeLayout(env.RELEASES_DIR!, 'jobs');
/** Release ids: live (the checkout's build), good (another build of the page), faulty (fails on interaction). */
const ids = { live: '', good: '', faulty: '' };
const builds = { live: '', good: '', faulty: '' };

const buildIdOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'ssr/manifest.json'), 'utf8')).buildId as string;

async function publish(dir: string) {
  const result = await npmRun('release', ['jobs', '--from', dir], env);
  expect(result).toMatchObject({ status: 0, lastLine: expect.stringMatching(/^[0-9a-f]{16}$/) });
  return result.lastLine;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'nativegtm-canary-'));
  chmodSync(scratch, 0o755);
  env = { RELEASES_DIR: join(scratch, 'releases'), FIELD_DATA_DIR: join(scratch, 'field-data') };
  const dist = join(jobs.dir, 'dist');
  await buildRemote({ packageDir: jobs.dir, name: 'jobs', outputPath: join(scratch, 'good') });
  await buildRemote({
    packageDir: join(repoRoot, 'tests/fixtures/faulty-interactions-page'),
    name: 'jobs',
    outputPath: join(scratch, 'faulty'),
  });
  ids.live = await publish(dist);
  ids.good = await publish(join(scratch, 'good'));
  ids.faulty = await publish(join(scratch, 'faulty'));
  builds.live = buildIdOf(dist);
  builds.good = buildIdOf(join(scratch, 'good'));
  builds.faulty = buildIdOf(join(scratch, 'faulty'));
  expect(await npmRun('promote', ['jobs', ids.live, '--skip-gate'], env)).toMatchObject({ status: 0 });

  const remotesFile = join(scratch, 'remotes.json');
  writeFileSync(
    remotesFile,
    JSON.stringify(shippedRemotes({ host: '127.0.0.1', portOf: (page) => sitePorts[page.package]! })),
  );
  site = await startSite(deployables, {
    ports: sitePorts,
    remotesFile,
    releasesDir: env.RELEASES_DIR,
    fieldData: { dir: env.FIELD_DATA_DIR! },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The canary command, running: its output so far, and how it ended once it has. */
interface RunningCommand {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  done: Promise<{ status: number | null; stdout: string; stderr: string }>;
}

/** Starts `npm run canary -- jobs <args>` as the node process itself, so that a kill -9 reaches the command. */
function canaryCommand(args: string[]): RunningCommand {
  const child = spawn(process.execPath, ['shared/tools/commands/canary.js', 'jobs', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (status) => resolve({ status, stdout, stderr })),
  );
  return { child, output: () => stdout + stderr, done };
}

/** Waits until the store says the canary runs at `share`. */
const runningAt = (share: number) =>
  eventually(
    async () => readCanary(layout()).canary?.share,
    (current) => current === share,
    { timeoutMs: 60_000, what: `the canary at ${share} %` },
  );

/** A bucket on that side of the jobs canary at `share`. */
function bucketOn(side: 'canary' | 'control' | 'outside', share: number): number {
  const bucket = [...Array(BUCKETS).keys()].find((candidate) => sideOf(candidate, 'jobs', share) === side);
  if (bucket === undefined) throw new Error(`no bucket is ${side} at ${share} %`);
  return bucket;
}

/** What a document of the jobs page was for: its build, its token's cohort (none: shared), its Cache-Control. */
async function jobsDocument(bucket?: number) {
  const headers: Record<string, string> = bucket === undefined ? {} : { cookie: `${BUCKET_COOKIE}=${bucket}` };
  const response = await rawGet(sitePorts.shell!, jobsPage.route, headers);
  expect(response.status).toBe(200);
  return {
    build: /data-remote="jobs" data-build="([^"]+)"/.exec(response.body)?.[1],
    cohort: new RegExp(`<meta name="${FIELD_TOKEN_META}" content="[^"]+\\.\\d+\\.([^.]+)\\.`).exec(response.body)?.[1],
    cacheControl: response.headers['cache-control'],
    setCookie: response.headers['set-cookie'],
  };
}

async function remotesJson(bucket?: number) {
  const headers: Record<string, string> = bucket === undefined ? {} : { cookie: `${BUCKET_COOKIE}=${bucket}` };
  const response = await rawGet(sitePorts.shell!, '/remotes.json', headers);
  return { jobs: JSON.parse(response.body).jobs as string, cacheControl: response.headers['cache-control'] };
}

describe('a canary on the built-in server', () => {
  it('serves each side its release, privately, and everyone else the shared live documents', async () => {
    const command = canaryCommand([ids.good, '--steps', '25,50,100', '--step-time', '10m', '--skip-gate']);
    try {
      await runningAt(25);
      const shared = await jobsDocument();
      expect(shared).toEqual({
        build: builds.live,
        cohort: undefined,
        cacheControl: expect.stringMatching(/^public/),
        setCookie: undefined,
      });
      expect(await jobsDocument(bucketOn('outside', 25))).toEqual(shared);
      expect(await jobsDocument(bucketOn('canary', 25))).toEqual({
        build: builds.good,
        cohort: 'canary:jobs',
        cacheControl: 'private, no-store',
        setCookie: undefined,
      });
      expect(await jobsDocument(bucketOn('control', 25))).toEqual({
        build: builds.live,
        cohort: 'control:jobs',
        cacheControl: 'private, no-store',
        setCookie: undefined,
      });
      // The client code follows: remotes.json names the canary's files for its visitors only.
      expect(await remotesJson()).toEqual({
        jobs: expect.not.stringContaining('/releases/'),
        cacheControl: 'no-cache',
      });
      expect(await remotesJson(bucketOn('canary', 25))).toEqual({
        jobs: expect.stringContaining(`/releases/${ids.good}/mf-manifest.json`),
        cacheControl: 'private, no-store',
      });
      expect(await remotesJson(bucketOn('control', 25))).toEqual({
        jobs: expect.not.stringContaining('/releases/'),
        cacheControl: 'private, no-store',
      });

      // 400 new visitors, each with the bucket a browser draws: 25 % ± 6 % of them see the canary.
      let inCanary = 0;
      for (let visitor = 0; visitor < 400; visitor += 1) {
        if ((await jobsDocument(newBucket())).build === builds.good) inCanary += 1;
      }
      expect(inCanary / 400).toBeGreaterThanOrEqual(0.19);
      expect(inCanary / 400).toBeLessThanOrEqual(0.31);

      // While it runs, nothing else changes what is live.
      const promote = await npmRun('promote', ['jobs', ids.good, '--skip-gate'], env);
      expect(promote.status).toBe(1);
      expect(promote.stderr).toMatch(/a canary of jobs is running \(release \w+ is at 25 %\): no promote/);
      expect((await npmRun('rollback', ['jobs'], env)).stderr).toMatch(/a canary of jobs is running .*: no rollback/);
      const second = await npmRun('canary', ['jobs', ids.faulty, '--skip-gate'], env);
      expect(second).toMatchObject({ status: 1, stderr: expect.stringMatching(/no second canary until it ends/) });

      const status = await npmRun('canary', ['jobs', '--status'], env);
      expect(status.status).toBe(0);
      expect(status.stdout).toMatch(/canary of release \w+ at 25 % \(control 25 % on live\), step 1 of 3/);
      expect(status.stdout).toMatch(/step ends in \d+m \d+s/);
      expect(status.stdout).toMatch(/its command: pid \d+ on .+, running/);
    } finally {
      command.child.kill('SIGKILL');
      await command.done;
    }

    // The command was killed: the canary stays as it was, and says so.
    expect(readCanary(layout()).canary?.share).toBe(25);
    expect((await jobsDocument(bucketOn('canary', 25))).build).toBe(builds.good);
    const orphaned = await npmRun('canary', ['jobs', '--status'], env);
    expect(orphaned.stdout).toMatch(/its command \(pid \d+\) is NOT running: the share stays at 25 %/);

    const resumed = canaryCommand(['--resume']);
    try {
      await eventually(
        async () => resumed.output(),
        (text) => /resumed at 25 %/.test(text),
        { timeoutMs: 30_000, what: 'the resumed command' },
      );
      expect((await npmRun('canary', ['jobs', '--status'], env)).stdout).toMatch(/, running$/m);

      // Abort: everyone on live within a second; the command running the canary stops by itself.
      const abort = await npmRun('canary', ['jobs', '--abort'], env);
      expect(abort).toMatchObject({ status: 0, stdout: expect.stringMatching(/aborted; everyone is on live/) });
      const aborted = Date.now();
      await eventually(
        async () => jobsDocument(bucketOn('canary', 25)),
        (document) => document.build === builds.live && document.cohort === undefined,
        { timeoutMs: LIVE_BOUND_MS, what: 'live for the canary visitor' },
      );
      expect(Date.now() - aborted).toBeLessThan(LIVE_BOUND_MS);
      const ended = await resumed.done;
      expect(ended.status).toBe(1);
      expect(ended.stderr).toMatch(/ended or taken over by another command/);
    } finally {
      resumed.child.kill('SIGKILL');
    }
    expect(await npmRun('canary', ['jobs', '--abort'], env)).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/no canary of jobs is running/),
    });
    const releases = await npmRun('releases', ['jobs'], env);
    expect(releases.stdout).toMatch(new RegExp(`canaries:\\n {2}aborted {2}${ids.good} .*aborted by an operator`));
  });

  it("keeps one visitor's page views on one side, from the second on", async () => {
    const command = canaryCommand([ids.good, '--steps', '50,100', '--step-time', '10m', '--skip-gate']);
    const context = await browser.newContext();
    try {
      await runningAt(50);
      const page = await context.newPage();
      const seen: string[] = [];
      for (let view = 0; view < 10; view += 1) {
        await page.goto(`http://localhost:${sitePorts.shell}${jobsPage.route}`);
        await untilHydrated(page);
        const build = await page.getAttribute('[data-remote="jobs"]', 'data-build');
        const token = await page
          .getAttribute(`meta[name="${FIELD_TOKEN_META}"]`, 'content', { timeout: 100 })
          .catch(() => null);
        seen.push(`${build} ${token?.split('.')[2] ?? 'shared'}`);
        if (view === 0) {
          // The first document is the shared one; its browser picks a bucket once the page is idle.
          await eventually(
            async () => (await context.cookies()).find((cookie) => cookie.name === BUCKET_COOKIE),
            (cookie) => cookie !== undefined,
            { timeoutMs: 10_000, what: 'the bucket cookie' },
          );
        }
      }
      expect(seen[0]).toBe(`${builds.live} shared`);
      const bucket = Number((await context.cookies()).find((cookie) => cookie.name === BUCKET_COOKIE)!.value);
      const side = sideOf(bucket, 'jobs', 50);
      const expected = side === 'canary' ? `${builds.good} canary:jobs` : `${builds.live} control:jobs`;
      expect(seen.slice(1)).toEqual(Array(9).fill(expected));
    } finally {
      await context.close();
      await npmRun('canary', ['jobs', '--abort'], env);
      command.child.kill('SIGKILL');
      await command.done;
    }
  });
});

/**
 * Real visitors until the command ends: one browser per side (its bucket set), each opening the jobs page, waiting for
 * its field data to be collected, making its interaction, and closing the tab, which sends the page view's records.
 */
async function visitUntilDone(
  command: RunningCommand,
  share: number,
  interact: Record<'canary' | 'control', (page: import('playwright-core').Page) => Promise<void>>,
) {
  const contexts: Record<string, BrowserContext> = {};
  for (const side of ['canary', 'control'] as const) {
    const context = await browser.newContext();
    await context.addCookies([
      { name: BUCKET_COOKIE, value: String(bucketOn(side, share)), url: `http://localhost:${sitePorts.shell}` },
    ]);
    contexts[side] = context;
  }
  let ended = false;
  void command.done.then(() => (ended = true));
  let views = 0;
  try {
    while (!ended) {
      for (const side of ['canary', 'control'] as const) {
        const page = await contexts[side]!.newPage();
        const collector = page.waitForResponse((response) => COLLECTOR_CHUNK.test(response.url()));
        await page.goto(`http://localhost:${sitePorts.shell}${jobsPage.route}`);
        await untilHydrated(page);
        await collector;
        await interact[side](page);
        await page.waitForTimeout(100);
        await page.close({ runBeforeUnload: true });
        views += 1;
      }
    }
  } finally {
    for (const context of Object.values(contexts)) await context.close();
  }
  return views;
}

/** A canary whose one judged step, at 50 %, lasts 25 s and needs `minViews` views a side. */
const judgedCanary = (id: string, minViews: number, ...more: string[]) =>
  canaryCommand([id, '--steps', '50,100', '--step-time', '25s', '--min-views', String(minViews), ...more]);

const clickHeading = async (page: import('playwright-core').Page) => {
  await page.click('h1');
};

describe('a canary judged on its visitors', () => {
  afterEach(async () => {
    // Each test starts from the same live release.
    if (readLivePointer(layout()).id !== ids.live) await npmRun('rollback', ['jobs'], env);
  });

  it('rolls back a release that passes the gate but throws for visitors, naming the error signal', async () => {
    // Eight views a side: eight errors in eight views against none in eight is significant at 1 %.
    const command = judgedCanary(ids.faulty, 8);
    await runningAt(50);
    // A visitor of the canary whose tab stays open through the rollback.
    const context = await browser.newContext();
    await context.addCookies([
      { name: BUCKET_COOKIE, value: String(bucketOn('canary', 50)), url: `http://localhost:${sitePorts.shell}` },
    ]);
    const open = await context.newPage();
    await open.goto(`http://localhost:${sitePorts.shell}${jobsPage.route}`);
    await open.getByRole('button', { name: 'Save search' }).waitFor();

    await visitUntilDone(command, 50, {
      canary: (page) => page.getByRole('button', { name: 'Save search' }).click(),
      control: clickHeading,
    });
    const ended = await command.done;
    expect(ended.stderr).toMatch(/^Gating release/m);
    expect(ended.stdout).toMatch(/^ 50 % {2}\d+ views vs \d+ on live · errors [\d.]+ vs 0\.0 per 1,000 .*→ fail/m);
    expect(ended.status).toBe(1);
    expect(ended.stderr).toMatch(
      /^error: rolled back at 50 %, everyone is on live: errors [\d.]+ per 1,000 views vs 0\.0 on live$/m,
    );
    expect(readLivePointer(layout()).id).toBe(ids.live);

    // The open tab keeps the modules it loaded until its next document, which is live.
    expect(await open.getByRole('button', { name: 'Save search' }).count()).toBe(1);
    await open.reload();
    await untilHydrated(open);
    expect(await open.getAttribute('[data-remote="jobs"]', 'data-build')).toBe(builds.live);
    expect(await open.getByRole('button', { name: 'Save search' }).count()).toBe(0);
    await context.close();
  });

  it('rolls back a release whose interaction blocks the main thread, on INP', async () => {
    const command = judgedCanary(ids.faulty, 6, '--skip-gate');
    await runningAt(50);
    await visitUntilDone(command, 50, {
      canary: (page) => page.getByRole('button', { name: 'Sort' }).click(),
      control: clickHeading,
    });
    const ended = await command.done;
    expect(ended.status).toBe(1);
    expect(ended.stderr).toMatch(
      /^error: rolled back at 50 %, everyone is on live: INP p75 \d+ ms vs \d+ ms on live$/m,
    );
  });

  it('takes a good release from 50 % to 100 %, and leaves it live', async () => {
    const command = judgedCanary(ids.good, 6, '--skip-gate');
    await runningAt(50);
    await visitUntilDone(command, 50, { canary: clickHeading, control: clickHeading });
    const ended = await command.done;
    expect(ended.stdout).toMatch(/^ 50 % {2}\d+ views vs \d+ on live · errors 0\.0 vs 0\.0 per 1,000 .*→ pass/m);
    expect(ended.stdout).toMatch(/^100 % {2}promoted$/m);
    expect(ended.stdout).toMatch(new RegExp(`jobs: release ${ids.good} is live`));
    expect(ended.status).toBe(0);
    expect(readLivePointer(layout()).id).toBe(ids.good);
    expect(readCanary(layout())).toEqual({});
    // Everyone gets it now, from the shared documents.
    expect((await jobsDocument()).build).toBe(builds.good);
  });
});

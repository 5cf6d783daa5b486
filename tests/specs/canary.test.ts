import { Agent, request } from 'node:http';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BUCKET_COOKIE, BUCKET_STORAGE_KEY, BUCKETS, CANARIES_META, sideOf } from '@nativegtm/contract/canaryBuckets';
import { FIELD_DATA_CHUNK, FIELD_DATA_PATH, FIELD_TOKEN_META } from '@nativegtm/contract/fieldData';
import { portsFrom } from '@nativegtm/contract/ports';
import { parseRemotesConfig } from '@nativegtm/contract/remotesConfig';
import { pages } from '@nativegtm/contract/pages';
import { deployables, repoRoot } from '@nativegtm/server/deployables';
import { readCanary } from '@nativegtm/store/canaryInStore';
import { readLivePointer } from '@nativegtm/store/livePointer';
import { readRecords } from '@nativegtm/server/fieldData/recordStore';
import { storeLayout } from '@nativegtm/store/layout';
import { startVarnish } from '../support/varnishServer';
import { buildRemote } from '../support/buildRemote';
import { launchChromium } from '../support/chromium';
import { eventually } from '../support/eventually';
import { rawGet } from '../support/rawGet';
import { npmRun, startCanaryCommand, type RunningCommand } from '../support/releaseCommands';
import { buildIdOf, publish, releaseScratch, startReleaseSites, type ReleaseSites } from '../support/releaseSites';
import { navigateInApp, ports as testPorts, untilHydrated } from '../support/site';

// Canary releases as a page team runs them (docs/releasing.md): `npm run canary` against one store read by both
// servers, the built-in one and nginx, with real Chromium visitors whose field data decides each step (on the built-in
// server). Steps of seconds, not minutes.

jest.setTimeout(300_000);

// Ports B+150..B+154 (the built-in server), B+155..B+159 (nginx), B+160 (Varnish): see tests/support/testSite.js.
const sitePorts = portsFrom(testPorts.shell! + 150);
const nginxPorts = portsFrom(testPorts.shell! + 155);
const varnishPort = testPorts.shell! + 160;
const jobs = deployables.find((d) => d.remote === 'jobs')!;
const jobsPage = pages.find((page) => page.remote === 'jobs')!;
/** "Live within one second", with room for a loaded 2-core machine. */
const LIVE_BOUND_MS = 1000;
const COLLECTOR_CHUNK = new RegExp(`/${FIELD_DATA_CHUNK}\\.[0-9a-f]{10}\\.js$`);

let env: Record<string, string>;
let sites: ReleaseSites | undefined;
let browser: Browser;
const layout = () => storeLayout(env.RELEASES_DIR!, 'jobs');
/** Release ids: live (the checkout's build), good (another build of the page), faulty (fails on interaction). */
const ids = { live: '', good: '', faulty: '' };
const builds = { live: '', good: '', faulty: '' };
/** Both servers, reading one store (a canary's visitors load its release from /releases/<id>/ on both). */
let servers: { name: string; port: number }[];

beforeAll(async () => {
  const store = releaseScratch('canary');
  const { scratch } = store;
  env = store.env;
  const dist = join(jobs.dir, 'dist');
  await buildRemote({ packageDir: jobs.dir, name: 'jobs', outputPath: join(scratch, 'good') });
  await buildRemote({
    packageDir: join(repoRoot, 'tests/fixtures/faulty-interactions-page'),
    name: 'jobs',
    outputPath: join(scratch, 'faulty'),
  });
  ids.live = await publish(store, dist);
  ids.good = await publish(store, join(scratch, 'good'));
  ids.faulty = await publish(store, join(scratch, 'faulty'));
  builds.live = buildIdOf(dist);
  builds.good = buildIdOf(join(scratch, 'good'));
  builds.faulty = buildIdOf(join(scratch, 'faulty'));
  expect(await npmRun('promote', ['jobs', ids.live, '--skip-gate'], env)).toMatchObject({ status: 0 });

  sites = await startReleaseSites(store, sitePorts, nginxPorts);
  servers = [
    { name: 'the built-in server', port: sitePorts.shell! },
    { name: 'nginx', port: nginxPorts.shell! },
  ];
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await sites?.stop();
});

// A test that failed half-way can leave its canary running: ended here, so that the next test fails only on its own.
afterEach(async () => {
  if (readCanary(layout()).canary)
    expect(await npmRun('canary', ['jobs', '--abort'], env)).toMatchObject({ status: 0 });
});

/** `npm run canary -- jobs <args>` on this spec's store (releaseCommands.js). */
const canaryCommand = (args: string[]) => startCanaryCommand(['jobs', ...args], env);

/**
 * Waits until `command` says its canary started at `share`, which it prints once every nginx serving the store has
 * taken it (no worker of the old configuration takes a request then), and the built-in server too (it looks at the
 * store at most every 200 ms): both servers' documents list it.
 */
const runningAt = async (command: RunningCommand, share: number) => {
  const started = new RegExp(`^jobs: canary of release \\w+ started at ${share} %`, 'm');
  // A command that ended (refused, say) prints nothing more: its own words fail the test, not a minute's wait. Its
  // output is whole once `done` settles (the streams closed), so it is read after that is known (`exited` first).
  let ended = false;
  void command.done.then(() => (ended = true));
  const output = await eventually(
    async () => ({ exited: ended, text: command.output() }),
    ({ text, exited }) => started.test(text) || exited,
    { timeoutMs: 60_000, what: `the canary started at ${share} %` },
  );
  if (!started.test(output.text)) throw new Error(`the canary command ended before it started: ${output.text}`);
  for (const { name, port } of servers) {
    await eventually(
      async () => (await jobsDocument(port).catch(() => undefined))?.canaries,
      (listed) => listed === `jobs=${share}`,
      { timeoutMs: 10_000, what: `the canaries ${name} lists` },
    );
  }
};

/** A bucket on that side of the jobs canary at `share`. */
function bucketOn(side: 'canary' | 'control' | 'outside', share: number): number {
  const bucket = [...Array(BUCKETS).keys()].find((candidate) => sideOf(candidate, 'jobs', share) === side);
  if (bucket === undefined) throw new Error(`no bucket is ${side} at ${share} %`);
  return bucket;
}

/** What a document was for: its jobs build, its token's cohort (none: shared), its caching, its list of canaries. */
function documentOf({ body, headers }: { body: string; headers: Record<string, string | string[] | undefined> }) {
  return {
    build: /data-remote="jobs" data-build="([^"]+)"/.exec(body)?.[1],
    cohort: new RegExp(`<meta name="${FIELD_TOKEN_META}" content="[0-9a-f]{16}\\.\\d+\\.([^.]+)\\.`).exec(body)?.[1],
    cacheControl: headers['cache-control'],
    setCookie: headers['set-cookie'],
    // The built-in server lists only running canaries; nginx prints each remote's, empty when it has none.
    canaries: new RegExp(`<meta name="${CANARIES_META}" content="([^"]*)"`).exec(body)?.[1]?.trim() || undefined,
  };
}

/** A document of the jobs page from the server on `port`, for a visitor whose browser sends `bucket`. */
async function jobsDocument(port: number, bucket?: number) {
  const headers: Record<string, string> = bucket === undefined ? {} : { cookie: `${BUCKET_COOKIE}=${bucket}` };
  const response = await rawGet(port, jobsPage.route, headers);
  expect(response.status).toBe(200);
  return documentOf(response);
}

/** The jobs remote's manifest URL in a served remotes.json (an entry may carry its list's integrity). */
const jobsManifest = (body: string) => parseRemotesConfig(JSON.parse(body)).entries.jobs!;

async function remotesJson(port: number, bucket?: number) {
  const headers: Record<string, string> = bucket === undefined ? {} : { cookie: `${BUCKET_COOKIE}=${bucket}` };
  const response = await rawGet(port, '/remotes.json', headers);
  return { jobs: jobsManifest(response.body), cacheControl: response.headers['cache-control'] };
}

describe('a canary on both servers', () => {
  it('serves each side its release, privately, and everyone else the shared live documents', async () => {
    const command = canaryCommand([ids.good, '--steps', '25,50,100', '--step-time', '10m', '--skip-gate']);
    try {
      await runningAt(command, 25);
      for (const { port } of servers) {
        const shared = await jobsDocument(port);
        // Every document lists the running canary, for browsers to know whether to send their bucket.
        expect(shared).toEqual({
          build: builds.live,
          cohort: undefined,
          cacheControl: expect.stringMatching(/^public/),
          setCookie: undefined,
          canaries: 'jobs=25',
        });
        expect(await jobsDocument(port, bucketOn('outside', 25))).toEqual(shared);
        const personal = { cacheControl: 'private, no-store', setCookie: undefined, canaries: 'jobs=25' };
        expect(await jobsDocument(port, bucketOn('canary', 25))).toEqual({
          build: builds.good,
          cohort: 'canary:jobs',
          ...personal,
        });
        expect(await jobsDocument(port, bucketOn('control', 25))).toEqual({
          build: builds.live,
          cohort: 'control:jobs',
          ...personal,
        });
        // The client code follows: remotes.json names the canary's files for its visitors only.
        expect(await remotesJson(port)).toEqual({
          jobs: expect.not.stringContaining('/releases/'),
          cacheControl: 'no-cache',
        });
        expect(await remotesJson(port, bucketOn('canary', 25))).toEqual({
          jobs: expect.stringMatching(new RegExp(`/releases/${ids.good}/mf-manifest\\.json$`)),
          cacheControl: 'private, no-store',
        });
        expect(await remotesJson(port, bucketOn('control', 25))).toEqual({
          jobs: expect.not.stringContaining('/releases/'),
          cacheControl: 'private, no-store',
        });

        // Every bucket a browser can draw: the canary's files for exactly the 25 % of them its side has. Counted by the
        // remotes.json each is served, which depends on nothing else, rather than by the page's build, which a slow
        // fragment on a busy machine can leave out (each side's documents are checked bucket by bucket above). That
        // browsers draw buckets evenly, so that 25 % of buckets is 25 % of new visitors, is newBucket's, proven with
        // seeded draws in the contract's tests: random visitors here would fail a run in a few hundred by chance.
        const canaryBuckets: number[] = [];
        for (let bucket = 0; bucket < BUCKETS; bucket += 1) {
          if ((await remotesJson(port, bucket)).jobs.includes('/releases/')) canaryBuckets.push(bucket);
        }
        expect(canaryBuckets).toEqual(
          [...Array(BUCKETS).keys()].filter((bucket) => sideOf(bucket, 'jobs', 25) === 'canary'),
        );
        expect(canaryBuckets).toHaveLength(25);
      }

      // The built-in server keeps its own record of each document of the page it composed for a side: whether the
      // fragment made it in (nginx, which cannot tell, keeps none).
      const documentRecords = await eventually(
        async () => {
          const found: { cohort?: string; fragment?: string }[] = [];
          for await (const record of readRecords(env.FIELD_DATA_DIR!, { since: 0, until: Date.now() + 1000 })) {
            const stored = record as { type: string; cohort?: string; fragment?: string };
            if (stored.type === 'document') found.push({ cohort: stored.cohort, fragment: stored.fragment });
          }
          return found;
        },
        (found) => found.some((record) => record.cohort === 'control:jobs'),
        { timeoutMs: 5000, what: 'the documents the built-in server recorded' },
      );
      expect(documentRecords).toContainEqual({ cohort: 'canary:jobs', fragment: 'ok' });
      expect(documentRecords).toContainEqual({ cohort: 'control:jobs', fragment: 'ok' });

      // The same visitor is on the same side on every server.
      for (let bucket = 0; bucket < BUCKETS; bucket += 1) {
        const [builtIn, nginxSide] = await Promise.all(servers.map(({ port }) => jobsDocument(port, bucket)));
        expect([bucket, nginxSide!.build, nginxSide!.cohort]).toEqual([bucket, builtIn!.build, builtIn!.cohort]);
      }

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
    for (const { port } of servers) expect((await jobsDocument(port, bucketOn('canary', 25))).build).toBe(builds.good);
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

      // Abort: everyone on live within a second, on both servers; the command running the canary stops by itself.
      const abort = await npmRun('canary', ['jobs', '--abort'], env);
      expect(abort).toMatchObject({ status: 0, stdout: expect.stringMatching(/aborted; everyone is on live/) });
      const aborted = Date.now();
      for (const { name, port } of servers) {
        await eventually(
          async () => jobsDocument(port, bucketOn('canary', 25)),
          (document) => document.build === builds.live && document.cohort === undefined && !document.canaries,
          { timeoutMs: LIVE_BOUND_MS, what: `live for the canary visitor on ${name}` },
        );
      }
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

  it.each(['the built-in server', 'nginx'])(
    "keeps one visitor's page views on one side, from the second on, in-app navigation too (%s)",
    async (name) => {
      const { port } = servers.find((server) => server.name === name)!;
      const jobsPort = (name === 'nginx' ? nginxPorts : sitePorts)[jobs.name]!;
      const command = canaryCommand([ids.good, '--steps', '50,100', '--step-time', '10m', '--skip-gate']);
      const context = await browser.newContext();
      try {
        await runningAt(command, 50);
        const page = await context.newPage();
        const seen: string[] = [];
        for (let view = 0; view < 10; view += 1) {
          await page.goto(`http://localhost:${port}${jobsPage.route}`);
          await untilHydrated(page);
          const build = await page.getAttribute('[data-remote="jobs"]', 'data-build');
          // Read without waiting: the document is loaded, and a shared one has no token to wait for.
          const meta = page.locator(`meta[name="${FIELD_TOKEN_META}"]`);
          const token = (await meta.count()) > 0 ? await meta.getAttribute('content') : null;
          seen.push(`${build} ${token?.split('.')[2] ?? 'shared'}`);
          if (view === 0) {
            // The first document is the shared one; once the page is idle, its browser draws a bucket and, on a side
            // of the canary the document lists (at 50 %, every bucket is), sends it from then on.
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

        // In-app navigation keeps the side: from another page, the jobs page's code comes from the side's release
        // only, never from live and the canary both.
        const jobsFiles: string[] = [];
        page.on('request', (request) => {
          if (/\/(mf-manifest\.json|remoteEntry\.js)$/.test(request.url()) && request.url().includes(`:${jobsPort}/`)) {
            jobsFiles.push(new URL(request.url()).pathname);
          }
        });
        await page.goto(`http://localhost:${port}/`);
        await untilHydrated(page);
        await navigateInApp(page, jobsPage.route);
        await page.getByRole('heading', { level: 1, name: jobsPage.heading }).waitFor();
        const folder = side === 'canary' ? `/releases/${ids.good}/` : '/';
        expect(jobsFiles.length).toBeGreaterThan(0);
        expect(
          jobsFiles.every((file) => file.startsWith(folder) && (side === 'canary' || !file.includes('/releases/'))),
        ).toBe(true);
      } finally {
        await context.close();
        command.child.kill('SIGKILL');
        await command.done;
      }
    },
  );
});

/**
 * A returning visitor's browser, as its first page left it: the bucket kept and, unless told otherwise, sent (it is
 * on a side).
 */
async function visitorWithBucket(bucket: number, { cookie = true } = {}): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addInitScript(
    ([key, value]) => window.localStorage.setItem(key!, value!),
    [BUCKET_STORAGE_KEY, String(bucket)],
  );
  if (cookie) {
    await context.addCookies([
      { name: BUCKET_COOKIE, value: String(bucket), url: `http://localhost:${sitePorts.shell}` },
    ]);
  }
  return context;
}

/**
 * Real visitors until the command ends: one browser per side (its bucket set), each opening the jobs page, waiting for
 * its field data to be collected, making its interaction, and closing the tab, which sends the page view's records.
 */
async function visitUntilDone(
  command: RunningCommand,
  share: number,
  interact: Record<'canary' | 'control', (page: Page) => Promise<void>>,
) {
  const contexts: Record<string, BrowserContext> = {};
  for (const side of ['canary', 'control'] as const) {
    contexts[side] = await visitorWithBucket(bucketOn(side, share));
  }
  let ended = false;
  void command.done.then(() => (ended = true));
  let views = 0;
  try {
    while (!ended) {
      for (const side of ['canary', 'control'] as const) {
        const page = await contexts[side]!.newPage();
        // Each view from a network of its own (the servers trust this machine's X-Forwarded-For), as real visitors'
        // are: the verdict wants views from several networks.
        await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `198.18.${views % 250}.7` });
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

/**
 * A canary whose one judged step, at 50 %, lasts 25 s and needs `minViews` views a side, from at least 4 networks, one
 * network keeping at most a quarter of a side (a few browsers' views, where a site's visitors have many more). Past
 * the 25 s, the command judges as soon as both sides have their views: on a loaded machine a browser's visits come
 * slower, and the step then waits for them (up to 5 minutes) rather than ending without a verdict.
 */
const judgedCanary = (id: string, minViews: number, ...more: string[]) =>
  canaryCommand([
    id,
    '--steps',
    '50,100',
    '--step-time',
    '25s',
    '--max-wait',
    '5m',
    '--min-views',
    String(minViews),
    '--min-networks',
    '4',
    '--network-share',
    '25',
    ...more,
  ]);

/**
 * Clicks the faulty release's button, when the page is still that release's: the last document a canary visitor opens
 * may come after the rollback.
 */
const clickIfThere = (name: string) => async (page: Page) => {
  const button = page.getByRole('button', { name });
  if ((await button.count()) > 0) await button.click();
};

const clickHeading = async (page: Page) => {
  await page.click('h1');
};

/**
 * GETs of the jobs page on `port` for a visitor with `bucket`, over `connections` kept-alive connections, until
 * `stop()`: as a browser does, a request whose reused connection was closed under it is sent again once on a new
 * one. Resolves with every answer (failed: still failing after that retry).
 */
function loadWithRetries(port: number, bucket: number, connections: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let running = true;
  const answers: (ReturnType<typeof documentOf> | { failed: string })[] = [];
  const once = (kept: boolean) =>
    new Promise<ReturnType<typeof documentOf>>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: jobsPage.route,
          agent: kept ? agent : false,
          headers: { cookie: `${BUCKET_COOKIE}=${bucket}` },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
            else resolve(documentOf({ body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  const client = async () => {
    while (running) {
      answers.push(
        await once(true)
          .catch(() => once(false))
          .catch((error: Error) => ({ failed: error.message })),
      );
    }
  };
  const clients = Array.from({ length: connections }, client);
  return {
    async stop() {
      running = false;
      await Promise.all(clients);
      agent.destroy();
      return answers;
    },
  };
}

describe('nginx reloaded by the canary command', () => {
  it('answers a client that retries, as browsers do, with every document whole while canaries start and end', async () => {
    const nginx = servers.find((server) => server.name === 'nginx')!;
    const bucket = bucketOn('canary', 50);
    const load = loadWithRetries(nginx.port, bucket, 20);
    let answers: Awaited<ReturnType<typeof load.stop>> = [];
    try {
      // Six reloads: three canaries started, each aborted.
      for (let round = 0; round < 3; round += 1) {
        const command = canaryCommand([ids.good, '--steps', '50,100', '--step-time', '10m', '--skip-gate']);
        try {
          await runningAt(command, 50);
          expect(await npmRun('canary', ['jobs', '--abort'], env)).toMatchObject({ status: 0 });
          expect(await command.done).toMatchObject({ status: 1 });
        } finally {
          command.child.kill('SIGKILL');
        }
      }
    } finally {
      answers = await load.stop();
    }
    // No failure, and no document that mixes two states: a canary visitor gets the release while the canary is
    // listed, and the shared live document once it is not. A canary document carries its visitor's field-data token
    // when the collector gives one within 500 ms; nginx leaves it out otherwise (renderConfig.js), as a collector
    // answering 20 connections on a loaded machine sometimes does. Such a document is whole: it has no token, never
    // another cohort's.
    const named = (build: string | undefined) =>
      build === builds.good ? 'good' : build === builds.live ? 'live' : `another build (${build})`;
    const kinds = new Map<string, number>();
    for (const answer of answers) {
      const kind =
        'failed' in answer
          ? `failed: ${answer.failed}`
          : answer.canaries === 'jobs=50' &&
              answer.build === builds.good &&
              (answer.cohort === 'canary:jobs' || answer.cohort === undefined)
            ? 'canary'
            : !answer.canaries && answer.build === builds.live && answer.cohort === undefined
              ? 'live'
              : `mixed: ${JSON.stringify({ ...answer, build: named(answer.build) })}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    expect([...kinds.keys()].sort()).toEqual(['canary', 'live']);
  });
});

describe('a canary command stopped past its lease', () => {
  it('is taken over by --resume, then stops with one line once it runs again, changing nothing more', async () => {
    const first = canaryCommand([ids.good, '--steps', '25,100', '--step-time', '10m', '--lease', '2s', '--skip-gate']);
    let resumed: RunningCommand | undefined;
    try {
      await runningAt(first, 25);
      const started = readCanary(layout()).canary!;
      first.child.kill('SIGSTOP');
      // The lease is the signal: another command may take over once the store says it ran out.
      const { expiresAt } = readCanary(layout()).canary!.lease!;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiresAt) - Date.now()) + 100));
      resumed = canaryCommand(['--resume']);
      await eventually(
        async () => resumed!.output(),
        (text) => /resumed at 25 %/.test(text),
        { timeoutMs: 30_000, what: 'the resumed command' },
      );
      const taken = readCanary(layout()).canary!;
      expect(taken.lease?.epoch).toBe((started.lease?.epoch ?? 0) + 1);
      expect(taken.command.pid).toBe(resumed.child.pid);

      first.child.kill('SIGCONT');
      const ended = await first.done;
      expect(ended.status).toBe(1);
      expect(ended.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: .*taken over/)]);
      // Still the resumed command's canary, as it was: the first one wrote nothing after it woke.
      const after = readCanary(layout()).canary!;
      expect(after).toEqual({ ...taken, lease: { ...taken.lease, expiresAt: after.lease?.expiresAt } });
      expect(after.command.pid).toBe(resumed.child.pid);
    } finally {
      first.child.kill('SIGCONT');
      first.child.kill('SIGKILL');
      // Its output says why, should it be refused.
      const aborted = await npmRun('canary', ['jobs', '--abort'], env);
      expect({ status: aborted.status, stderr: aborted.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
      resumed?.child.kill('SIGKILL');
    }
  });
});

describe('a canary behind a shared cache (Varnish with docs/cdn.vcl, in front of nginx)', () => {
  it("keeps everyone else on the cached live documents, and passes the canary's visitors to the origin", async () => {
    const command = canaryCommand([ids.good, '--steps', '25,50,100', '--step-time', '10m', '--skip-gate']);
    const varnish = await startVarnish({ port: varnishPort, originPort: nginxPorts.shell! });
    const context = await visitorWithBucket(bucketOn('canary', 25), { cookie: false });
    const seen: Awaited<ReturnType<typeof rawGet>>[] = [];
    /** Through the cache, for a visitor whose browser sends these cookies. */
    const viaCache = async (path: string, cookie?: string) => {
      const response = await rawGet(varnishPort, path, cookie === undefined ? {} : { cookie });
      expect(response.status).toBe(200);
      seen.push(response);
      return { ...documentOf(response), hit: String(response.headers['x-varnish']).split(' ').length === 2 };
    };
    try {
      await runningAt(command, 25);
      // Visitors outside: first visits, and browsers with cookies of their own, share one cached document.
      const first = await viaCache(jobsPage.route);
      expect(first).toMatchObject({ build: builds.live, cohort: undefined, canaries: 'jobs=25' });
      for (const cookie of [undefined, '_ga=GA1.2.3', undefined, 'theme=dark']) {
        expect(await viaCache(jobsPage.route, cookie)).toMatchObject({
          build: builds.live,
          cohort: undefined,
          hit: true,
        });
      }
      // The canary's and the control's visitors go to the origin, and get their side, kept by no one.
      expect(await viaCache(jobsPage.route, `${BUCKET_COOKIE}=${bucketOn('canary', 25)}`)).toMatchObject({
        build: builds.good,
        cohort: 'canary:jobs',
        cacheControl: 'private, no-store',
        hit: false,
      });
      expect(await viaCache(jobsPage.route, `_ga=1; ${BUCKET_COOKIE}=${bucketOn('control', 25)}`)).toMatchObject({
        build: builds.live,
        cohort: 'control:jobs',
        hit: false,
      });
      // Which never reaches anyone else: the next visitor outside still gets the cached live document.
      expect(await viaCache(jobsPage.route)).toMatchObject({ build: builds.live, cohort: undefined, hit: true });
      // A bucket sent while outside (the canary grew past it, or ended) is passed too, and gets live.
      expect(await viaCache(jobsPage.route, `${BUCKET_COOKIE}=${bucketOn('outside', 25)}`)).toMatchObject({
        build: builds.live,
        cohort: undefined,
        hit: false,
      });
      const canaryRemotes = await rawGet(varnishPort, '/remotes.json', {
        cookie: `${BUCKET_COOKIE}=${bucketOn('canary', 25)}`,
      });
      expect(jobsManifest(canaryRemotes.body)).toMatch(new RegExp(`/releases/${ids.good}/mf-manifest\\.json$`));
      expect(jobsManifest((await rawGet(varnishPort, '/remotes.json')).body)).not.toContain('/releases/');

      // A browser whose bucket is in the canary: its first document is the cached live one; it then sends its bucket,
      // and its next document is the canary's.
      const page = await context.newPage();
      await page.goto(`http://localhost:${varnishPort}${jobsPage.route}`);
      await untilHydrated(page);
      expect(await page.getAttribute('[data-remote="jobs"]', 'data-build')).toBe(builds.live);
      await eventually(
        async () => (await context.cookies()).find((cookie) => cookie.name === BUCKET_COOKIE)?.value,
        (value) => value === String(bucketOn('canary', 25)),
        { timeoutMs: 10_000, what: 'the bucket cookie' },
      );
      await page.reload();
      await untilHydrated(page);
      expect(await page.getAttribute('[data-remote="jobs"]', 'data-build')).toBe(builds.good);

      // No answer a cache may share carries a cookie.
      const shareable = seen.filter((response) => /public/.test(String(response.headers['cache-control'])));
      expect(shareable.length).toBeGreaterThan(0);
      expect(shareable.filter((response) => response.headers['set-cookie'])).toEqual([]);
    } finally {
      await context.close();
      await varnish.stop();
      command.child.kill('SIGKILL');
      await command.done;
    }
  });
});

describe('a canary judged on its visitors', () => {
  afterEach(async () => {
    // Each test starts from the same live release.
    if (readLivePointer(layout()).id !== ids.live) await npmRun('rollback', ['jobs'], env);
  });

  it('rolls back a release that passes the gate but throws for visitors, naming the error signal', async () => {
    // Eight views a side: eight errors in eight views against none in eight is significant at 1 %.
    const command = judgedCanary(ids.faulty, 8);
    await runningAt(command, 50);
    // A visitor of the canary whose tab stays open through the rollback.
    const context = await visitorWithBucket(bucketOn('canary', 50));
    const open = await context.newPage();
    await open.goto(`http://localhost:${sitePorts.shell}${jobsPage.route}`);
    await open.getByRole('button', { name: 'Save search' }).waitFor();

    await visitUntilDone(command, 50, {
      canary: clickIfThere('Save search'),
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

    // The open tab keeps the modules it loaded until its next document, which is live (once the built-in server has
    // looked at the store since the rollback: every 200 ms).
    expect(await open.getByRole('button', { name: 'Save search' }).count()).toBe(1);
    await eventually(
      async () => (await jobsDocument(sitePorts.shell!, bucketOn('canary', 50))).build,
      (build) => build === builds.live,
      { timeoutMs: 30_000, what: 'live for the canary visitor' },
    );
    await open.reload();
    await untilHydrated(open);
    expect(await open.getAttribute('[data-remote="jobs"]', 'data-build')).toBe(builds.live);
    expect(await open.getByRole('button', { name: 'Save search' }).count()).toBe(0);
    await context.close();
  });

  it('rolls back a release whose interaction blocks the main thread, on INP', async () => {
    const command = judgedCanary(ids.faulty, 6, '--skip-gate');
    await runningAt(command, 50);
    await visitUntilDone(command, 50, {
      canary: clickIfThere('Sort'),
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
    await runningAt(command, 50);
    await visitUntilDone(command, 50, { canary: clickHeading, control: clickHeading });
    const ended = await command.done;
    expect(ended.stdout).toMatch(/^ 50 % {2}\d+ views vs \d+ on live · errors 0\.0 vs 0\.0 per 1,000 .*→ pass/m);
    expect(ended.stdout).toMatch(/^100 % {2}promoted$/m);
    expect(ended.stdout).toMatch(new RegExp(`jobs: release ${ids.good} is live`));
    expect(ended.status).toBe(0);
    expect(readLivePointer(layout()).id).toBe(ids.good);
    expect(readCanary(layout())).toEqual({});
    // Everyone gets it now, from the shared documents: nginx's at once (the command's reload waited for its old
    // workers), the built-in server's at its next look at the store (every 200 ms; how soon is the bench's).
    for (const { name, port } of servers) {
      await eventually(
        async () => (await jobsDocument(port)).build,
        (build) => build === builds.good,
        { timeoutMs: 30_000, what: `the promoted release on ${name}` },
      );
    }
  });
});

/**
 * A visitor's document of the jobs page on `side` of the jobs canary at 50 %, from `network` (the third part of a
 * 198.18.0.0/15 address, passed in X-Forwarded-For; undefined: this machine's own address), and its token.
 */
async function tokenOf(port: number, side: 'canary' | 'control', network?: number) {
  const forwarded: Record<string, string> =
    network === undefined ? {} : { 'x-forwarded-for': `198.${18 + (network >> 8)}.${network & 255}.7` };
  const response = await rawGet(port, jobsPage.route, {
    cookie: `${BUCKET_COOKIE}=${bucketOn(side, 50)}`,
    ...forwarded,
  });
  expect(response.status).toBe(200);
  const token = new RegExp(`<meta name="${FIELD_TOKEN_META}" content="([^"]+)"`).exec(response.body)?.[1];
  expect(token?.split('.')[2]).toBe(`${side}:jobs`);
  return token!;
}

/**
 * The beacons of one document's `views` page views, each with an LCP of `lcp` (plus a little of the view's place, so
 * that values are not all ties) and, with `errors`, an error thrown by the jobs remote.
 */
async function sendViews(
  port: number,
  token: string,
  { views, lcp, errors }: { views: number; lcp: number; errors: boolean },
) {
  const statuses = await Promise.all(
    Array.from({ length: views }, async (_, seq) => {
      const body = JSON.stringify({
        v: 1,
        token,
        first: true,
        view: { seq, route: jobsPage.route, remote: 'jobs', build: builds.live, nav: 'document', device: 'desktop' },
        vitals: [{ name: 'LCP', value: lcp + (seq % 7) * 10 }],
        errors: errors ? [{ source: 'error', remote: 'jobs' }] : [],
      });
      return (await fetch(`http://127.0.0.1:${port}${FIELD_DATA_PATH}`, { method: 'POST', body })).status;
    }),
  );
  expect(statuses.every((status) => status === 204)).toBe(true);
}

/** Traffic a step sees: documents of one side from one network (none: this machine), each with its views. */
interface Traffic {
  side: 'canary' | 'control';
  network?: number;
  documents: number;
  views: number;
  lcp: number;
  errors: boolean;
}

/**
 * Honest visitors: 25 networks, two documents a side each, one view each (50 views a side); the canary's LCP as
 * given, live's 1,200 ms and a little.
 */
const honest = (canaryLcp: number): Traffic[] =>
  Array.from({ length: 25 }, (_, network) => [
    { side: 'canary' as const, network, documents: 2, views: 1, lcp: canaryLcp + (network % 5) * 40, errors: false },
    { side: 'control' as const, network, documents: 2, views: 1, lcp: 1200 + (network % 5) * 40, errors: false },
  ]).flat();

/**
 * Runs one judged step of a canary of the good release on the server on `port` with `traffic`, sent within the step,
 * and returns how the command ended. Steps of 30 s: the traffic is sent in a few seconds.
 */
async function judgedOn(port: number, traffic: Traffic[]) {
  const stepMs = 30_000;
  const command = canaryCommand([
    ids.good,
    '--steps',
    '50,100',
    '--step-time',
    `${stepMs / 1000}s`,
    '--max-wait',
    '5s',
    '--min-views',
    '40',
    '--skip-gate',
  ]);
  await runningAt(command, 50);
  const started = Date.now();
  for (const { side, network, documents, views, lcp, errors } of traffic) {
    const tokens = await Promise.all(Array.from({ length: documents }, () => tokenOf(port, side, network)));
    for (const token of tokens) await sendViews(port, token, { views, lcp, errors });
  }
  // What was sent fell within the step (the command judges the step's window only).
  expect(Date.now() - started).toBeLessThan(stepMs - 3000);
  return command.done;
}

/** The step's views on each side, as the command's line says them. */
const viewsOf = (stdout: string) => /^ 50 % {2}(\d+) views vs (\d+) on live/m.exec(stdout)?.slice(1).map(Number);

describe('a canary judged on many networks, not on a few requests', () => {
  afterEach(async () => {
    await npmRun('canary', ['jobs', '--abort'], env);
    if (readLivePointer(layout()).id !== ids.live) await npmRun('rollback', ['jobs'], env);
  });

  // One address's flood: 30 documents on the canary's side (30 GETs), 20 views each, 600 views in all, ten times the
  // honest visitors'. Without the caps, either flood decides the step.
  const flood = (lcp: number, errors: boolean): Traffic => ({ side: 'canary', documents: 30, views: 20, lcp, errors });

  it.each(['the built-in server', 'nginx'])(
    'promotes a good release whatever poor values one address sends (%s)',
    async (name) => {
      const { port } = servers.find((server) => server.name === name)!;
      const ended = await judgedOn(port, [...honest(1200), flood(20_000, true)]);
      expect(ended.stdout).toMatch(/^ 50 % .*→ pass: no signal worse than live$/m);
      expect(ended.status).toBe(0);
      expect(readLivePointer(layout()).id).toBe(ids.good);
    },
  );

  it.each(['the built-in server', 'nginx'])(
    'rolls back a slow release whatever good values one address sends (%s)',
    async (name) => {
      const { port } = servers.find((server) => server.name === name)!;
      const ended = await judgedOn(port, [...honest(6000), flood(900, false)]);
      expect(ended.status).toBe(1);
      expect(ended.stderr).toMatch(
        /^error: rolled back at 50 %, everyone is on live: LCP p75 6\d{3} ms vs 1\d{3} ms on live$/m,
      );
    },
  );

  it.each(['the built-in server', 'nginx'])(
    'counts a flood spread over many networks as their visitors, each document and each network within its bound (%s)',
    async (name) => {
      const { port } = servers.find((server) => server.name === name)!;
      const ended = await judgedOn(port, [
        ...honest(1200),
        // 40 networks of one document each, sending 30 views: each document counts its first 20.
        ...Array.from({ length: 40 }, (_, index) => ({
          side: 'canary' as const,
          network: 100 + index,
          documents: 1,
          views: 30,
          lcp: 20_000,
          errors: true,
        })),
        // And one network of 20 documents (400 views): it keeps a tenth of the side, 94 of 944.
        { side: 'canary', network: 200, documents: 20, views: 20, lcp: 20_000, errors: true },
      ]);
      expect(viewsOf(ended.stdout)).toEqual([50 + 40 * 20 + 94, 50]);
      expect(ended.status).toBe(1);
      expect(ended.stderr).toMatch(/^error: rolled back at 50 %, everyone is on live: errors [\d.]+ per 1,000 views/m);
    },
  );
});

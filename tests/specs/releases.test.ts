import { cpSync, readFileSync, readlinkSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { portsFrom } from '@nativegtm/contract/ports';
import { pages } from '@nativegtm/contract/pages';
import { FIELD_TOKEN_META, TOKEN } from '@nativegtm/contract/fieldData';
import { deployables, repoRoot } from '@nativegtm/server/deployables';
import { buildRemote } from '../support/buildRemote';
import { startDeployApi } from '../support/deployApi';
import { launchChromium } from '../support/chromium';
import { rawGet } from '../support/rawGet';
import { npmRun } from '../support/releaseCommands';
import { buildIdOf, publish, releaseScratch, startReleaseSites, type ReleaseSites } from '../support/releaseSites';
import { collectConsoleErrors, navigateInApp, ports as testPorts, untilHydrated } from '../support/site';
import { rewriteBuildFile } from '@nativegtm/build/integrity';

// Releases as a page team uses them (docs/releasing.md), through the npm scripts, against one store served by both
// servers at once: the built-in one and nginx with the generated configuration.

jest.setTimeout(240_000);

// Ports B+140..B+144 (the built-in server), B+145..B+149 (nginx), B+208..B+209 (the deploy API): see
// tests/support/testSite.js.
const sitePorts = portsFrom(testPorts.shell! + 140);
const nginxPorts = portsFrom(testPorts.shell! + 145);
const servers = [
  { name: 'the built-in server', port: sitePorts.shell! },
  { name: 'nginx', port: nginxPorts.shell! },
];
const jobs = deployables.find((d) => d.remote === 'jobs')!;
const jobsPage = pages.find((page) => page.remote === 'jobs')!;

let scratch: string;
let env: Record<string, string>;
let sites: ReleaseSites | undefined;
let browser: Browser;
/** Release ids: the checkout's build, a second build of the page, the same page with a changed index.html, a page
 * that throws in the browser, and one asking for a newer React than the shell's. */
const ids = { a: '', b: '', c: '', throwing: '', newerReact: '' };
const builds = { a: '', b: '' };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  const store = releaseScratch('releases');
  ({ scratch, env } = store);
  const dist = join(jobs.dir, 'dist');
  await buildRemote({ packageDir: jobs.dir, name: 'jobs', outputPath: join(scratch, 'b') });
  await buildRemote({
    packageDir: join(repoRoot, 'tests/fixtures/throwing-page'),
    name: 'jobs',
    outputPath: join(scratch, 'throwing'),
  });
  cpSync(dist, join(scratch, 'c'), { recursive: true });
  writeFileSync(join(scratch, 'c/index.html'), `${readFileSync(join(dist, 'index.html'), 'utf8')}<!-- c -->\n`);
  cpSync(join(scratch, 'b'), join(scratch, 'newer-react'), { recursive: true });
  const manifestFile = join(scratch, 'newer-react/mf-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  for (const shared of manifest.shared) if (shared.name === 'react') shared.requiredVersion = '^20.0.0';
  // As its build would have written it (compressed copies, integrity list): the gate's singletons check refuses it.
  rewriteBuildFile(dirname(manifestFile), 'mf-manifest.json', JSON.stringify(manifest));

  ids.a = await publish(store, dist);
  ids.b = await publish(store, join(scratch, 'b'));
  ids.c = await publish(store, join(scratch, 'c'));
  ids.throwing = await publish(store, join(scratch, 'throwing'));
  ids.newerReact = await publish(store, join(scratch, 'newer-react'));
  builds.a = buildIdOf(dist);
  builds.b = buildIdOf(join(scratch, 'b'));

  sites = await startReleaseSites(store, sitePorts, nginxPorts);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await sites?.stop();
});

/** The build whose HTML a new document of the jobs page carries. */
async function documentBuild(port: number, headers: Record<string, string> = {}) {
  const response = await rawGet(port, jobsPage.route, headers);
  expect(response.status).toBe(200);
  return /data-remote="jobs" data-build="([^"]+)"/.exec(response.body)?.[1];
}

/**
 * Asks for a document every 20 ms until it carries `build`. How soon a change reaches the servers (within a second of
 * the command's exit) is the bench's to measure (npm run bench:releases); here, that it arrives, on a machine as busy
 * as CI's: 30 s is only how long until the test gives up.
 */
async function untilBuild(port: number, build: string) {
  const started = Date.now();
  while ((await documentBuild(port)) !== build) {
    if (Date.now() - started > 30_000) throw new Error(`port ${port} still not serving build ${build}`);
    await pause(20);
  }
}

const live = () => readlinkSync(join(env.RELEASES_DIR!, 'jobs/live'));

/**
 * Opens the jobs page and expects React to hydrate the server's HTML in place (the same h1 node), with no request
 * failing (a file the shell refused for its integrity) and no error screen.
 */
async function expectHydratedInPlace(port: number) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
    const errors = collectConsoleErrors(page);
    // The shell's script waits until the server's h1 is noted, so that a page rendered afresh cannot pass for hydrated.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/main\.[0-9a-f]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`http://127.0.0.1:${port}${jobsPage.route}`, { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1, name: jobsPage.heading }).waitFor();
    await page.evaluate(() => {
      (window as unknown as { __h1: Element | null }).__h1 = document.querySelector('h1');
    });
    release();
    await untilHydrated(page);
    expect(
      await page.evaluate(() => document.querySelector('h1') === (window as unknown as { __h1: Element }).__h1),
    ).toBe(true);
    expect(await page.$('#status-title')).toBeNull();
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

describe('releases', () => {
  it('publishes immutable releases that change nothing visitors see', async () => {
    expect(new Set(Object.values(ids)).size).toBe(5);
    expect(await npmRun('release', ['jobs', '--from', join(scratch, 'b')], env)).toMatchObject({
      status: 0,
      lastLine: ids.b,
      stdout: expect.stringContaining('already release'),
    });
    for (const { port } of servers) expect(await documentBuild(port)).toBe(builds.a);
  });

  it('promotes a release through the gate to both servers, and rolls it back', async () => {
    const skipped = await npmRun('promote', ['jobs', ids.a, '--skip-gate'], env);
    expect(skipped).toMatchObject({ status: 0, stderr: expect.stringContaining('WARNING: --skip-gate') });

    const promoted = await npmRun('promote', ['jobs', ids.b], env);
    expect(promoted.status).toBe(0);
    for (const check of ['metadata', 'shared singletons', 'server HTML', 'hydration', 'in-app navigation']) {
      expect(promoted.stderr).toContain(`✓ ${check}`);
    }
    for (const { port } of servers) await untilBuild(port, builds.b);
    // New client code too: the remote's manifest at its root is the release's, on both servers.
    for (const ports of [sitePorts, nginxPorts]) {
      const manifest = await rawGet(ports['jobs-mfe']!, '/ssr/manifest.json');
      expect(JSON.parse(manifest.body).buildId).toBe(builds.b);
    }

    const rolledBack = await npmRun('rollback', ['jobs'], env);
    expect(rolledBack).toMatchObject({ status: 0, stdout: expect.stringContaining(`release ${ids.a} is live again`) });
    for (const { port } of servers) await untilBuild(port, builds.a);

    const listed = await npmRun('releases', ['jobs'], env);
    expect(listed.stdout).toMatch(new RegExp(`^live\\s+${ids.a}\\s+\\S+\\s+(\\S+|-)\\s+.*SKIPPED$`, 'm'));
    // Rolled back from: no longer live, and the gate's pass recorded.
    expect(listed.stdout).toMatch(new RegExp(`^\\s+${ids.b}\\s.*passed$`, 'm'));
    // Who published each release and made each change: the user and host the commands ran as, newest change first.
    const by = `${userInfo().username}@${hostname()}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(listed.stdout).toMatch(new RegExp(`^live\\s+${ids.a}\\s+\\S+\\s+${by}\\s`, 'm'));
    const changes = listed.stdout.slice(listed.stdout.indexOf('changes of what is live (newest first):'));
    expect(changes.split('\n').slice(1, 4)).toEqual([
      expect.stringMatching(new RegExp(`^ {2}\\S+ {2}rollback {2}${ids.a} \\(was ${ids.b}\\) {2}by ${by}$`)),
      expect.stringMatching(new RegExp(`^ {2}\\S+ {2}promote {3}${ids.b} \\(was ${ids.a}\\) {2}by ${by}$`)),
      expect.stringMatching(new RegExp(`^ {2}\\S+ {2}promote {3}${ids.a}( \\(was \\w+\\))? {2}by ${by}$`)),
    ]);
  });

  it.each([
    ['a page that throws only in the browser', 'throwing', /✗ hydration: .*Fixture page failed while rendering/],
    [
      'a page that needs a newer shared React',
      'newerReact',
      /✗ shared singletons: react: needs \^20\.0\.0, the live shell provides 19\./,
    ],
  ] as const)('the gate refuses %s: nothing changes, the release is recorded as failed', async (_, name, failure) => {
    const before = live();
    const result = await npmRun('promote', ['jobs', ids[name]], env);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/failed the gate; nothing changed/);
    expect(result.stderr).toMatch(failure);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(live()).toBe(before);
    expect((await npmRun('releases', ['jobs'], env)).stdout).toMatch(new RegExp(`^\\s+${ids[name]}\\s.*FAILED$`, 'm'));
  });

  it("gates a promote on the deploy API's side and prints its checks, for a pipeline with no store", async () => {
    const made = await npmRun(
      'deploy-tokens',
      ['create', '--remote', 'jobs', '--can', 'promote,rollback', '--team', 'jobs'],
      env,
    );
    expect(made.status).toBe(0);
    const api = await startDeployApi(env, testPorts.shell! + 208);
    try {
      // The pipeline's machine: the API's URL and a token, no store.
      const pipeline = { RELEASES_DIR: join(scratch, 'no-store-here'), NATIVEGTM_DEPLOY_TOKEN: made.lastLine };
      const to = ['--to', api.url];
      const promoted = await npmRun('promote', ['jobs', ids.b, ...to], pipeline);
      expect(promoted.status).toBe(0);
      for (const check of ['metadata', 'shared singletons', 'server HTML', 'hydration', 'in-app navigation']) {
        expect(promoted.stderr).toContain(`✓ ${check}`);
      }
      for (const { port } of servers) await untilBuild(port, builds.b);
      const refused = await npmRun('promote', ['jobs', ids.newerReact, ...to], pipeline);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/^error: release \w+ of jobs failed the gate; nothing changed/m);
      expect(refused.stderr).toMatch(/✗ shared singletons: react: needs \^20\.0\.0, the live shell provides 19\./);
      expect((await npmRun('rollback', ['jobs', ...to], pipeline)).status).toBe(0);
      for (const { port } of servers) await untilBuild(port, builds.a);
    } finally {
      await api.stop();
    }
  });

  describe.each(servers)('a preview, on $name', ({ port }) => {
    const origin = `http://127.0.0.1:${port}`;

    it('shows the release to that browser only, server HTML and client code, as it navigates', async () => {
      const printed = await npmRun('preview', ['jobs', ids.b], { ...env, SITE_ORIGIN: origin });
      expect(printed).toMatchObject({ status: 0, lastLine: `${origin}/_preview/jobs/${ids.b}` });

      const previewing = await browser.newContext();
      const page = await previewing.newPage();
      const errors = collectConsoleErrors(page);
      const files: string[] = [];
      page.on('request', (request) => files.push(request.url()));
      await page.goto(printed.lastLine);
      expect(new URL(page.url()).pathname).toBe(jobsPage.route);
      await untilHydrated(page);
      expect(await page.getAttribute('[data-remote="jobs"]', 'data-build')).toBe(builds.b);
      expect(files).toContainEqual(expect.stringContaining(`/releases/${ids.b}/remoteEntry.js`));
      // The person previewing is told so, and how to end it.
      const notice = page.getByRole('complementary', { name: 'Preview' });
      await expect(notice.textContent()).resolves.toContain(`Preview: jobs release ${ids.b.slice(0, 8)}`);

      const response = await page.goto(`${origin}${jobsPage.route}`);
      expect(response?.headers()).toMatchObject({ 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' });
      // A private document: its own field-data token, a new one each time.
      const token = () => page.getAttribute(`meta[name="${FIELD_TOKEN_META}"]`, 'content');
      const first = await token();
      expect(first).toMatch(TOKEN);
      await page.reload();
      expect(await token()).toMatch(TOKEN);
      expect(await token()).not.toBe(first);
      expect(await page.getAttribute('[data-remote="jobs"]', 'data-build')).toBe(builds.b);
      await navigateInApp(page, '/');
      await navigateInApp(page, jobsPage.route);
      await page.waitForFunction((heading) => document.querySelector('h1')?.textContent === heading, jobsPage.heading);
      expect(errors).toEqual([]);

      // Anyone else, and shared caches, get the live site; canonical links are the same in both.
      const visitor = await rawGet(port, jobsPage.route);
      expect(visitor.headers['cache-control']).toMatch(/^public/);
      expect(visitor.body).not.toContain(FIELD_TOKEN_META);
      expect(await documentBuild(port)).toBe(builds.a);
      const canonical = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
      expect(canonical(await page.content())).toBe(canonical(visitor.body));

      await page.getByRole('link', { name: 'End preview' }).click();
      await page.waitForURL(`${origin}/`);
      await page.goto(`${origin}${jobsPage.route}`);
      expect(await page.getAttribute('[data-remote="jobs"]', 'data-build')).toBe(builds.a);
      await untilHydrated(page);
      expect(await page.getByRole('complementary', { name: 'Preview' }).count()).toBe(0);
      await previewing.close();
    });

    it('can only name a release that is in the store', async () => {
      expect((await rawGet(port, '/_preview/jobs/0123456789abcdef')).status).toBe(404);
      expect((await rawGet(port, '/_preview/jobs/http%3A%2F%2Fevil.example')).status).toBe(404);
      expect((await rawGet(port, `/_preview/nobody/${ids.b}`)).status).toBe(404);
      expect((await npmRun('preview', ['jobs', '0123456789abcdef'], env)).stderr).toMatch(
        /no release 0123456789abcdef/,
      );
    });
  });

  it.each(servers)('ignores a preview cookie naming a release that is not in the store, on $name', async ({ port }) => {
    const cookie = { Cookie: 'nativegtm_preview=jobs.0123456789abcdef' };
    const response = await rawGet(port, jobsPage.route, cookie);
    expect(response.headers['cache-control']).toMatch(/^public/);
    expect(await documentBuild(port, cookie)).toBe(builds.a);
  });

  describe.each(servers)('a tab opened before a promote and a rollback, on $name', ({ port }) => {
    it('keeps working: the page shows, no request fails', async () => {
      const context = await browser.newContext();
      const page: Page = await context.newPage();
      const failed: string[] = [];
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
      const errors = collectConsoleErrors(page);
      await page.goto(`http://127.0.0.1:${port}/`);
      await untilHydrated(page);
      // The shell fetches the other pages' manifests when idle: this tab now holds release a's.
      await pause(1500);

      expect((await npmRun('promote', ['jobs', ids.b, '--skip-gate'], env)).status).toBe(0);
      await untilBuild(port, builds.b);
      await navigateInApp(page, jobsPage.route);
      await page.waitForFunction((heading) => document.querySelector('h1')?.textContent === heading, jobsPage.heading);

      expect((await npmRun('rollback', ['jobs'], env)).status).toBe(0);
      await untilBuild(port, builds.a);
      await navigateInApp(page, '/');
      await navigateInApp(page, jobsPage.route);
      await page.waitForFunction((heading) => document.querySelector('h1')?.textContent === heading, jobsPage.heading);
      expect(await page.$('#status-title')).toBeNull();
      expect(failed).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  });

  it('lets one of two promotes at once through; the other exits non-zero saying why', async () => {
    const results = await Promise.all([
      npmRun('promote', ['jobs', ids.b], env),
      npmRun('promote', ['jobs', ids.c], env),
    ]);
    const winner = results.findIndex((result) => result.status === 0);
    expect(results.map((result) => result.status).sort()).toEqual([0, 1]);
    expect(results[1 - winner]!.stderr).toMatch(/another command is changing this remote's releases: "promote jobs/);
    expect(live()).toBe([ids.b, ids.c][winner]);
    expect((await npmRun('rollback', ['jobs'], env)).status).toBe(0);
    expect(live()).toBe(ids.a);
  });

  it('never goes down on a corrupt pointer: the built-in server keeps the last good release, nginx serves dist/', async () => {
    const pointer = join(env.RELEASES_DIR!, 'jobs/live');
    expect((await npmRun('promote', ['jobs', ids.b, '--skip-gate'], env)).status).toBe(0);
    await untilBuild(sitePorts.shell!, builds.b);
    // Replaced in one rename, as a link is: removed first, a server reading it in between would see no live release,
    // which is no corruption (a remote with none serves its dist/), and keep that.
    symlinkSync('not-a-release', `${pointer}.corrupt`);
    renameSync(`${pointer}.corrupt`, pointer);
    try {
      await pause(500);
      expect(await documentBuild(sitePorts.shell!)).toBe(builds.b);
      // The built-in server's page is whole: the HTML is of the build the shell loads, whose files it accepts.
      await expectHydratedInPlace(sitePorts.shell!);
      // nginx has no memory of the last good one: its remote falls back to dist/ (here release a's build), and a
      // document it composes carries that build; its collector keeps vouching for the last good release (b) only, as
      // nginx follows a corrupt link wherever it points (docs/releasing.md).
      expect([builds.a, builds.b]).toContain(await documentBuild(nginxPorts.shell!));
      expect((await npmRun('releases', ['jobs'], env)).stdout).toContain(
        'warning: the live pointer names "not-a-release"',
      );
    } finally {
      // Mended whatever happened, so that the tests after this one start from a good pointer.
      expect((await npmRun('promote', ['jobs', ids.a, '--skip-gate'], env)).status).toBe(0);
    }
    expect(live()).toBe(ids.a);
  });

  it('prunes all but the newest releases, never the live or the previous one', async () => {
    const result = await npmRun('releases', ['jobs', '--prune', '--keep', '1'], env);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^jobs: removed 2 release\(s\)/);
    const listed = result.stdout.split('\n').filter((line) => /^\S*\s+[0-9a-f]{16}/.test(line));
    expect(listed).toEqual([
      expect.stringMatching(new RegExp(`^live\\s+${ids.a}`)),
      expect.stringMatching(new RegExp(`^previous\\s+${ids.b}`)),
      expect.stringMatching(new RegExp(`^\\s+${ids.newerReact}`)),
    ]);
  });

  it.each([
    [['release', ['nobody']], 2, /unknown remote "nobody" \(the remotes are candidates, employers, jobs, comingSoon\)/],
    [['promote', ['jobs', '0123456789abcdef']], 1, /there is no release 0123456789abcdef of jobs/],
    [['rollback', ['jobs', 'extra']], 2, /unexpected argument "extra"\nusage: npm run rollback -- <remote>/],
    [['releases', ['jobs', '--keep', 'x']], 2, /--keep must be a whole number/],
    [['promote', ['jobs', '0123456789abcdef', '--skip']], 2, /Unknown option '--skip'/],
  ] as const)('refuses %j with one clear line and exit %i, changing nothing', async ([script, args], code, message) => {
    const before = live();
    const result = await npmRun(script, [...args], env);
    expect(result.status).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(live()).toBe(before);
  });

  it.each(['release', 'preview', 'promote', 'rollback', 'releases'])(
    '%s --help prints its usage, exit 0',
    async (script) => {
      const result = await npmRun(script, ['--help'], env);
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^usage: npm run ${script} -- <remote>`));
    },
  );

  it('says so when the store cannot be written', async () => {
    const result = await npmRun('promote', ['jobs', ids.a], { RELEASES_DIR: '/dev/null/releases' });
    expect(result).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/cannot be written at \/dev\/null\/releases\/jobs \(ENOTDIR\)/),
    });
  });
});

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FIELD_DATA_PATH, FIELD_TOKEN_META } from '@nativegtm/contract/fieldData';
import { overridePath } from '@nativegtm/contract/overrides';
import { portsFrom } from '@nativegtm/contract/ports';
import { pages } from '@nativegtm/contract/pages';
import { deployables, repoRoot } from '@nativegtm/server/deployables';
import { htmlHeaders, remoteOrigins } from '@nativegtm/server/securityHeaders';
import { launchChromium } from '../support/chromium';
import { eventually } from '../support/eventually';
import { releaseScratch, startReleaseSites, type ReleaseScratch, type ReleaseSites } from '../support/releaseSites';
import { ports as testPorts, untilHydrated } from '../support/site';

// A team's loop (CONTRIBUTING.md, "A day on the jobs team"): `npm run dev -- jobs --against <site>` serves the jobs
// page from a dev server inside the running site, in one browser only, on both servers. The dev server runs on a copy
// of the jobs package, which the tests edit: the checkout stays as it is for every other suite.

jest.setTimeout(240_000);

// Ports B+161..B+165 (the built-in server), B+166..B+170 (nginx), B+171 (the dev server): tests/support/testSite.js.
const sitePorts = portsFrom(testPorts.shell! + 161);
const nginxPorts = portsFrom(testPorts.shell! + 166);
const devPort = testPorts.shell! + 171;
const devOrigin = `http://localhost:${devPort}`;
const jobs = deployables.find((d) => d.remote === 'jobs')!;
const jobsPage = pages.find((page) => page.remote === 'jobs')!;
const servers = [
  { name: 'the built-in server', origin: `http://127.0.0.1:${sitePorts.shell}`, ports: sitePorts },
  { name: 'nginx', origin: `http://127.0.0.1:${nginxPorts.shell}`, ports: nginxPorts },
];
const SUBTITLE = 'Discover elite opportunities from top companies.';

let store: ReleaseScratch;
let sites: ReleaseSites | undefined;
let browser: Browser;
let copy: string;
let dev: { child: ChildProcessWithoutNullStreams; output: () => string } | undefined;

/** The copy's page component, where the tests make their "saved change". */
const pageSource = () => join(copy, 'src/FeaturedJobsPage.tsx');

beforeAll(async () => {
  store = releaseScratch('override');
  sites = await startReleaseSites(store, sitePorts, nginxPorts);
  // The copy lives inside the repository, so that it resolves the workspace's packages as jobs-mfe does.
  mkdirSync(join(repoRoot, 'tests/.artifacts'), { recursive: true });
  copy = join(mkdtempSync(join(repoRoot, 'tests/.artifacts/override-')), jobs.name);
  mkdirSync(copy);
  for (const entry of ['src', 'package.json', 'webpack.config.js']) {
    cpSync(join(jobs.dir, entry), join(copy, entry), {
      recursive: true,
      filter: (from) => !/\.test\.tsx?$/.test(from),
    });
  }

  // The command as a team runs it, against the built-in server's site (it asks the site before it starts).
  const child = spawn(
    process.execPath,
    [
      'shared/tools/commands/dev.js',
      'jobs',
      '--against',
      servers[0]!.origin,
      '--port',
      String(devPort),
      '--package-dir',
      copy,
    ],
    { cwd: repoRoot, detached: true },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  dev = { child, output: () => output };
  // Ready once it prints the URL that starts the override (after its first build).
  const ready = `Open ${servers[0]!.origin}${overridePath('jobs', devOrigin)}`;
  await eventually(
    async () => output,
    (text) => text.includes(ready) || child.exitCode !== null,
    { timeoutMs: 180_000, what: 'npm run dev' },
  );
  if (!output.includes(ready)) throw new Error(`npm run dev exited ${child.exitCode}:\n${output}`);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (dev?.child.pid && dev.child.exitCode === null) {
    const exited = new Promise((resolve) => dev!.child.once('exit', resolve));
    process.kill(-dev.child.pid, 'SIGTERM');
    await exited;
  }
  if (copy) rmSync(join(copy, '..'), { recursive: true, force: true });
  await sites?.stop();
});

/** A page that records what the documents' policy refused and every field-data beacon it sent. */
async function watchedPage(context: BrowserContext) {
  const page = await context.newPage();
  const refused: string[] = [];
  const beacons: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|TrustedHTML|TrustedScript|Trusted Type/i.test(message.text())) {
      refused.push(message.text());
    }
  });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === FIELD_DATA_PATH) beacons.push(request.url());
  });
  return { page, refused, beacons };
}

const notice = (page: Page) => page.getByRole('complementary', { name: 'Override' });

describe.each(servers)('an override on $name', ({ name, origin, ports }) => {
  let overridden: BrowserContext;
  let watched: Awaited<ReturnType<typeof watchedPage>>;
  /** The subtitle this server's test saves into the copy. */
  const changed = `Saved on ${name}: ${SUBTITLE}`;

  beforeAll(async () => {
    overridden = await browser.newContext();
    watched = await watchedPage(overridden);
  });
  afterAll(async () => {
    await overridden?.close();
    writeFileSync(pageSource(), readFileSync(join(jobs.dir, 'src/FeaturedJobsPage.tsx'), 'utf8'));
  });

  it('shows the page from the dev server in that browser, and a saved change within seconds', async () => {
    const { page, refused, beacons } = watched;
    const start = await page.goto(`${origin}${overridePath('jobs', devOrigin)}`);
    expect(new URL(page.url()).pathname).toBe(jobsPage.route);
    expect(start?.headers()['cache-control']).toBe('private, no-store');
    expect(start?.headers()['x-robots-tag']).toBe('noindex');
    // The server fetched nothing of the page: no server-rendered HTML; the browser rendered it from the dev server.
    expect(await start?.text()).not.toContain('data-remote="jobs"');
    await untilHydrated(page);
    await expect(notice(page).textContent()).resolves.toBe(`jobs from ${devOrigin}, rendered in this browser · End`);
    await page.getByText(SUBTITLE).waitFor();
    const token = await page.getAttribute(`meta[name="${FIELD_TOKEN_META}"]`, 'content');
    expect(token?.split('.')[2]).toBe('override');

    const saved = Date.now();
    writeFileSync(pageSource(), readFileSync(pageSource(), 'utf8').replace(SUBTITLE, changed));
    await page.getByText(changed).waitFor({ timeout: 20_000 });
    const shownMs = Date.now() - saved;
    console.log(`${name}: a saved change showed in ${shownMs} ms`);
    // Still overridden after the reload, and nothing refused by the policy all along; no field data sent.
    expect(new URL(page.url()).pathname).toBe(jobsPage.route);
    await notice(page).waitFor();
    expect(refused).toEqual([]);
    expect(beacons).toEqual([]);
  });

  it('leaves every other browser on the live site, with the policy unchanged', async () => {
    const visitor = await browser.newContext();
    try {
      const page = await visitor.newPage();
      const response = await page.goto(`${origin}${jobsPage.route}`);
      const entries = Object.fromEntries(
        Object.entries(ports)
          .filter(([name]) => name !== 'shell')
          .map(([name, port]) => [deployables.find((d) => d.name === name)!.remote, `http://127.0.0.1:${port}/`]),
      );
      expect(response?.headers()['content-security-policy']).toBe(
        htmlHeaders(remoteOrigins(entries))['Content-Security-Policy'],
      );
      expect(response?.headers()['cache-control']).not.toContain('private');
      expect(await response?.text()).toContain('data-remote="jobs"');
      await untilHydrated(page);
      await page.getByText(SUBTITLE).waitFor();
      expect(await page.getByText(changed).count()).toBe(0);
      expect(await notice(page).count()).toBe(0);
    } finally {
      await visitor.close();
    }
  });

  it('refuses an origin the site does not allow, and a start from another site, and sets nothing', async () => {
    const other = await browser.newContext();
    try {
      const page = await other.newPage();
      const refusal = await page.goto(`${origin}${overridePath('jobs', 'http://10.0.0.5:3103')}`);
      expect(refusal?.status()).toBe(403);
      expect(await page.textContent('body')).toContain('does not accept overrides from');
      expect(await other.cookies()).toEqual([]);
      const live = await page.goto(`${origin}${jobsPage.route}`);
      expect(await live?.text()).toContain('data-remote="jobs"');

      // Another site's link cannot switch a visitor to scripts from their own machine: the same site under another
      // name (localhost, not 127.0.0.1) is another site to the browser, which says so in Sec-Fetch-Site.
      await page.goto(`${origin.replace('127.0.0.1', 'localhost')}${jobsPage.route}`);
      const start = `${origin}${overridePath('jobs', devOrigin)}`;
      const [followed] = await Promise.all([
        page.waitForResponse(start),
        page.evaluate((href) => {
          const link = document.createElement('a');
          link.href = href;
          link.textContent = 'Try this';
          document.body.append(link);
          link.click();
        }, start),
      ]);
      expect(followed.status()).toBe(403);
      expect(await followed.text()).toContain('not from a link on another site');
      expect(await other.cookies()).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('ends with the notice, and the live page is back in that browser', async () => {
    const { page } = watched;
    await Promise.all([page.waitForURL(`${origin}/`), notice(page).getByRole('link', { name: 'End' }).click()]);
    const live = await page.goto(`${origin}${jobsPage.route}`);
    expect(live?.headers()['cache-control']).not.toContain('private');
    expect(await live?.text()).toContain('data-remote="jobs"');
    await untilHydrated(page);
    await page.getByText(SUBTITLE).waitFor();
    expect(await page.getByText(changed).count()).toBe(0);
    expect(await notice(page).count()).toBe(0);
  });
});

test('the dev command refuses a site that does not take the override, and names why', async () => {
  const refused = spawn(
    process.execPath,
    ['shared/tools/commands/dev.js', 'jobs', '--against', 'http://127.0.0.1:9', '--package-dir', copy],
    { cwd: repoRoot },
  );
  let stderr = '';
  refused.stderr.on('data', (chunk) => (stderr += chunk));
  const status = await new Promise((resolve) => refused.once('exit', resolve));
  expect(status).toBe(1);
  expect(stderr).toMatch(/^error: nothing answers at http:\/\/127\.0\.0\.1:9 .*start the site there first\n$/);
});

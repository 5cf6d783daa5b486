import { cpSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { portsFrom } from '@nativegtm/contract/ports';
import { pages } from '@nativegtm/contract/pages';
import { deployables } from '@nativegtm/server/deployables';
import { seriousViolations } from '../support/axe';
import { launchChromium } from '../support/chromium';
import { npmRun } from '../support/releaseCommands';
import { publish, releaseScratch, startReleaseSites, type ReleaseSites } from '../support/releaseSites';
import { ports as testPorts } from '../support/site';
import { rewriteBuildFile } from '@nativegtm/build/integrity';

// A preview is opened on purpose (docs/releasing.md#previews), the same on both servers sharing one store: a link
// from another site asks before it sets a cookie, only the site's own post starts it, and a release whose gate failed
// opens only through the link `npm run preview -- … --allow-failed` prints, with a notice that says so.

jest.setTimeout(240_000);

// Ports B+172..B+176 (the built-in server) and B+177..B+181 (nginx): see tests/support/testSite.js.
const sitePorts = portsFrom(testPorts.shell! + 172);
const nginxPorts = portsFrom(testPorts.shell! + 177);
const servers = [
  { name: 'the built-in server', port: sitePorts.shell! },
  { name: 'nginx', port: nginxPorts.shell! },
];
const jobs = deployables.find((d) => d.remote === 'jobs')!;
const jobsPage = pages.find((page) => page.remote === 'jobs')!;

let env: Record<string, string>;
let sites: ReleaseSites | undefined;
let browser: Browser;
/** A release whose gate was not run, and one whose gate failed (it asks for a newer React than the shell's). */
const ids = { open: '', failed: '' };

beforeAll(async () => {
  const store = releaseScratch('preview-gate');
  env = store.env;
  const dist = join(jobs.dir, 'dist');
  const newerReact = join(store.scratch, 'newer-react');
  cpSync(dist, newerReact, { recursive: true });
  const manifestFile = join(newerReact, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  for (const shared of manifest.shared) if (shared.name === 'react') shared.requiredVersion = '^20.0.0';
  // As its build would have written it (compressed copies, integrity list): the gate's singletons check refuses it.
  rewriteBuildFile(dirname(manifestFile), 'mf-manifest.json', JSON.stringify(manifest));
  ids.open = await publish(store, dist);
  ids.failed = await publish(store, newerReact);
  const gated = await npmRun('promote', ['jobs', ids.failed], env);
  expect(gated).toMatchObject({ status: 1, stderr: expect.stringContaining('failed the gate') });

  sites = await startReleaseSites(store, sitePorts, nginxPorts);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await sites?.stop();
});

interface Answer {
  status: number;
  location: string | undefined;
  cookies: string[];
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request as a browser would send it, with what it says of where it comes from. */
function send(port: number, path: string, method: 'GET' | 'POST', headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          // nginx writes the site's origin in front of the path: the page is what matters.
          location: res.headers.location && new URL(res.headers.location, `http://127.0.0.1:${port}`).pathname,
          cookies: res.headers['set-cookie'] ?? [],
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '' : undefined);
  });
}

const CROSS_SITE = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' };
const TYPED = { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate' };

it('answers the same pages on both servers, and a release not in the store with no cookie', async () => {
  const answers = (port: number) =>
    Promise.all([
      send(port, `/_preview/jobs/${ids.open}`, 'GET', CROSS_SITE),
      send(port, `/_preview/jobs/${ids.open}`, 'POST', CROSS_SITE),
      send(port, `/_preview/jobs/${ids.failed}`, 'GET', TYPED),
    ]);
  const [site, nginx] = await Promise.all(servers.map(({ port }) => answers(port)));
  expect(nginx!.map((answer) => [answer.status, answer.body])).toEqual(
    site!.map((answer) => [answer.status, answer.body]),
  );
  for (const { port } of servers) {
    expect(await send(port, '/_preview/jobs/0123456789abcdef', 'GET', TYPED)).toMatchObject({
      status: 404,
      cookies: [],
    });
  }
});

describe.each(servers)('a preview link, on $name', ({ port }) => {
  const origin = `http://127.0.0.1:${port}`;
  const link = () => `/_preview/jobs/${ids.open}`;

  it('from another site sets no cookie and asks, on a page of the site', async () => {
    for (const from of [CROSS_SITE, { 'Sec-Fetch-Site': 'same-site' }]) {
      const answer = await send(port, link(), 'GET', from);
      expect(answer).toMatchObject({ status: 200, cookies: [] });
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('private, no-store');
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(answer.body).toContain(`<h1>Preview jobs release ${ids.open.slice(0, 8)}?</h1>`);
      expect(answer.body).toContain(`<form method="post" action="${link()}">`);
      expect(answer.body).toContain(`<a class="button secondary" href="${jobsPage.route}">Cancel</a>`);
      expect(answer.body).toMatch(
        /<link rel="stylesheet" href="\/styles\.[0-9a-f]+\.css" integrity="sha384-[\w+/]{64}" crossorigin="anonymous">/,
      );
    }
  });

  it('refuses a post from another site with a page, and starts on one from the site', async () => {
    const foreign = await send(port, link(), 'POST', { ...CROSS_SITE, Origin: 'https://elsewhere.example' });
    expect(foreign).toMatchObject({ status: 403, cookies: [] });
    expect(foreign.body).toContain('<h1>This preview was not opened</h1>');

    const own = await send(port, link(), 'POST', { 'Sec-Fetch-Site': 'same-origin', Origin: origin });
    expect(own).toMatchObject({ status: 303, location: jobsPage.route });
    expect(own.cookies.map((line) => line.split(';')[0])).toEqual([
      `nativegtm_preview=jobs.${ids.open}`,
      `nativegtm_preview_notice=jobs.${ids.open}`,
    ]);
  });

  it('typed, bookmarked or from the site itself, starts in one step', async () => {
    for (const from of [TYPED, { 'Sec-Fetch-Site': 'same-origin' }, {}] as Record<string, string>[]) {
      const answer = await send(port, link(), 'GET', from);
      expect(answer).toMatchObject({ status: 303, location: jobsPage.route });
      expect(answer.cookies).toHaveLength(2);
    }
  });

  it('refuses a release whose gate failed without its mark, with a page and no cookie', async () => {
    const printed = await npmRun('preview', ['jobs', ids.failed], env);
    expect(printed).toMatchObject({ status: 1, stderr: expect.stringContaining('--allow-failed') });
    for (const target of [`/_preview/jobs/${ids.failed}`, `/_preview/jobs/${ids.failed}/${'0'.repeat(32)}`]) {
      const answer = await send(port, target, 'GET', TYPED);
      expect(answer).toMatchObject({ status: 403, cookies: [] });
      expect(answer.body).toContain('<h1>This release failed its checks</h1>');
    }
  });

  it('opens a release whose gate failed through the marked link, and its notice says FAILED', async () => {
    const printed = await npmRun('preview', ['jobs', ids.failed, '--allow-failed'], { ...env, SITE_ORIGIN: origin });
    expect(printed).toMatchObject({ status: 0, stderr: expect.stringContaining('FAILED the gate') });
    expect(printed.lastLine).toMatch(new RegExp(`^${origin}/_preview/jobs/${ids.failed}/[0-9a-f]{32}$`));
    const target = new URL(printed.lastLine).pathname;

    const asked = await send(port, target, 'GET', CROSS_SITE);
    expect(asked).toMatchObject({ status: 200, cookies: [] });
    expect(asked.body).toContain('FAILED the gate');

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(printed.lastLine);
    expect(new URL(page.url()).pathname).toBe(jobsPage.route);
    const notice = page.getByRole('complementary', { name: 'Preview' });
    await expect(notice.textContent()).resolves.toContain(`jobs release ${ids.failed.slice(0, 8)} FAILED the gate`);
    await context.close();
  });

  it('in Chromium, from a link on another site: asked, then opened by the button, or left by Cancel', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Another site, with a link to the preview.
    await page.route('http://elsewhere.test/', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<a href="${origin}${link()}">See the new jobs page</a>` }),
    );
    await page.goto('http://elsewhere.test/');
    await page.getByRole('link', { name: 'See the new jobs page' }).click();
    await page.getByRole('heading', { name: `Preview jobs release ${ids.open.slice(0, 8)}?` }).waitFor();
    expect((await context.cookies()).map((cookie) => cookie.name)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`${origin}${jobsPage.route}`);
    expect(await page.getByRole('complementary', { name: 'Preview' }).count()).toBe(0);

    await page.goBack();
    await page.getByRole('button', { name: 'Open preview' }).click();
    await page.waitForURL(`${origin}${jobsPage.route}`);
    const notice = page.getByRole('complementary', { name: 'Preview' });
    await expect(notice.textContent()).resolves.toContain(`Preview: jobs release ${ids.open.slice(0, 8)}`);
    await context.close();
  });
});

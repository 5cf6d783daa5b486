import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { deployables } from '@nativegtm/server/deployables';
import { close, listen } from '@nativegtm/server/staticServer';
import { launchChromium } from '../support/chromium';
import { startFaultyRemote, type FaultMode, type FaultScope } from '../support/faultyRemote';
import { gate } from '../support/gate';
import { startNginx } from '../support/nginxServer';
import { rawGet } from '../support/rawGet';
import { collectConsoleErrors, countReactRenderers, pages, ports as testPorts } from '../support/site';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSite } = require('@nativegtm/server/startSite');

// Pages rendered on the server (each remote's build), composed per request by the shell's server, hydrated in the
// browser: against the built-in server and against nginx with the generated configuration.

const repoRoot = resolve(__dirname, '../..');
const ORIGIN = 'https://nativegtm.example';
const base = testPorts.shell! + 70;
const remotes = deployables.filter((d) => d.role === 'remote');

jest.setTimeout(60_000);

interface Target {
  port: number;
  url: (path: string) => string;
  stop: () => Promise<unknown>;
}

let faulty: Awaited<ReturnType<typeof startFaultyRemote>>;
let elsewhere: Server;

/** A remotes.json for a server under test, in a folder of its own that `remove` takes away with it. */
function remotesFileFor(host: string, portOf: (pkg: string) => number): { file: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'nativegtm-ssr-remotes-'));
  chmodSync(folder, 0o755); // nginx workers run as an unprivileged user and must read the file
  const file = join(folder, 'remotes.json');
  const entries = remotes.map((d) => [
    d.remote,
    d.remote === 'jobs' ? `${faulty.url}/mf-manifest.json` : `http://${host}:${portOf(d.name)}/mf-manifest.json`,
  ]);
  writeFileSync(file, JSON.stringify(Object.fromEntries(entries)));
  return { file, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * fragmentTimeoutMs: the default is what the server checks measure; the browser checks, which are not about
 * timeouts, give a remote more time, so that a busy 2-core CI machine cannot turn their first document into the
 * fallback one.
 */
async function builtIn(fragmentTimeoutMs = 400, portOffset = 0): Promise<Target> {
  const ports = Object.fromEntries(deployables.map((d) => [d.name, base + portOffset + (d.port - 3000)]));
  const remotes = remotesFileFor('localhost', (pkg) => ports[pkg]!);
  const site = await startSite(deployables, { ports, remotesFile: remotes.file, origin: ORIGIN, fragmentTimeoutMs });
  const stop = async () => {
    await site.stop();
    remotes.remove();
  };
  return { port: ports.shell!, url: (path) => `http://localhost:${ports.shell}${path}`, stop };
}

async function nginx(fragmentTimeoutMs = 400, portOffset = 0): Promise<Target> {
  const ports = Object.fromEntries(deployables.map((d) => [d.name, base + 10 + portOffset + (d.port - 3000)]));
  const remotes = remotesFileFor('127.0.0.1', (pkg) => ports[pkg]!);
  const server = await startNginx({ ports, remotesFile: remotes.file, origin: ORIGIN, fragmentTimeoutMs });
  // The jobs remote is elsewhere (not one of this nginx's own servers): its query parameters were read from its
  // origin, as on a deployment where remotes live on other hosts.
  if (server.warnings.length > 0) throw new Error(server.warnings.join('\n'));
  if (!server.config.includes('map $args $nativegtm_jobs_0')) throw new Error('no variant maps for the jobs page');
  const stop = async () => {
    await server.stop();
    remotes.remove();
  };
  return { port: ports.shell!, url: (path) => `http://127.0.0.1:${ports.shell}${path}`, stop };
}

beforeAll(async () => {
  // Where a redirecting remote points: content the document must never include.
  elsewhere = createServer((_req, res) => res.end('<div data-remote="jobs" >REDIRECTED ELSEWHERE</div>'));
  await listen(elsewhere, base + 6, 'elsewhere');
  faulty = await startFaultyRemote(join(repoRoot, 'jobs-mfe/dist'), base + 5, `http://localhost:${base + 6}`);
});
afterAll(async () => {
  await faulty?.stop();
  if (elsewhere) await close(elsewhere);
});

/** The built-in server keeps a fragment (or its failure) for 500 ms: wait that out after changing the remote. */
async function setJobs(mode: FaultMode, scope: FaultScope = 'all'): Promise<void> {
  faulty.setMode(mode, scope);
  await new Promise((resolve) => setTimeout(resolve, 600));
}

const decode = (html: string) =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');

/** The text a reader of the HTML sees: without tags and comments, entities decoded. */
const textOf = (html: string) =>
  decode(html.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');

const servers = [
  ['the built-in server (npm start)', builtIn],
  ['nginx with the generated configuration', nginx],
] as const;

describe.each(servers)('%s', (_name, start) => {
  let target: Target;
  beforeAll(async () => {
    target = await start();
  });
  afterAll(async () => {
    await target?.stop();
  });
  afterEach(() => faulty.setMode('up'));

  const get = (path: string, headers: Record<string, string> = {}) => rawGet(target.port, path, headers);

  it('answers every page route 200 with the page rendered in the HTML: heading, sections, links with real hrefs', async () => {
    for (const page of pages) {
      const response = await get(page.path);
      const html = decode(response.body);
      expect([page.path, response.status]).toEqual([page.path, 200]);
      expect(html.match(/<h1[^>]*>[\s\S]*?<\/h1>/g)?.map(textOf)).toEqual([expect.stringContaining(page.heading)]);
      expect(html).toContain('<main id="main-content"');
      expect(html).toMatch(/<header[^>]*>/);
      expect(html).toMatch(/<footer[^>]*>/);
      expect(html).toContain('href="/employers"');
      expect(html).toContain('href="/coming-soon"');
      expect(html).not.toContain('needs JavaScript');
    }
    const candidates = decode((await get('/')).body);
    expect(candidates.match(/<h2[^>]*>/g)?.length).toBeGreaterThanOrEqual(5);
    expect(candidates).toContain('No credit card required');
    const comingSoon = decode((await get('/coming-soon')).body);
    expect(comingSoon).toContain('href="mailto:recruiting@nativegtm.example"');
    expect(comingSoon).toContain('href="https://forms.nativegtm.example/early-access"');
  });

  it("gives each page its own head: title, description, canonical URL and link-preview tags on the site's origin", async () => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const page of pages) {
      // A forged Host header must never end up in a page that may be cached and shown to others.
      const html = (await get(page.path, { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' })).body;
      const url = `${ORIGIN}${page.path}`;
      const title = html.match(/<title>([^<]+)<\/title>/)?.[1];
      expect(title).toMatch(/ · NativeGTM$/);
      titles.add(title!);
      expect(html.match(/<title>/g)).toHaveLength(1);
      const description = html.match(/<meta name="description" content="([^"]{40,})"/)?.[1];
      expect(description).toBeDefined();
      descriptions.add(description!);
      expect(html).toContain(`<meta property="og:description" content="${description}"`);
      expect(html).toContain(`<link rel="canonical" href="${url}"`);
      expect(html).toContain(`<meta property="og:url" content="${url}"`);
      expect(html).toContain(`<meta property="og:title" content="${title}"`);
      expect(html).toMatch(/<meta property="og:description" content="[^"]{40,}"/);
      expect(html).toContain('<meta property="og:type" content="website"');
      expect(html).toContain(`<meta property="og:image" content="${ORIGIN}/og-image.png"`);
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
      expect(html).not.toContain('evil.example');
    }
    expect(titles.size).toBe(pages.length);
    expect(descriptions.size).toBe(pages.length);
  });

  it('serves a 1200x630 PNG as the link-preview image, robots.txt and a sitemap of the four pages', async () => {
    const image = await fetch(target.url('/og-image.png'));
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);

    const robots = await get('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect([...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])).toEqual(
      pages.map((page) => `${ORIGIN}${page.path}`),
    );
  });

  it('answers an unknown path 404 with the 404 screen in the HTML, not indexed', async () => {
    for (const path of ['/no/such/page', '/employers/extra', '/index.html']) {
      const response = await get(path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('Oops! Page not found');
      expect(response.body).toContain('<title>Page not found · NativeGTM</title>');
      expect(response.body).toContain('<meta name="robots" content="noindex"');
    }
  });

  it('renders Featured Jobs for the filters in the query, and junk as All without echoing it', async () => {
    const filtered = decode((await get('/featured-jobs?function=product-marketing&location=austin-tx')).body);
    expect(filtered).toContain('1 job found');
    expect(filtered).toContain('Product Marketing Manager');
    expect(filtered).not.toContain('Enterprise Account Executive');
    expect(filtered).toMatch(/<option value="product-marketing" selected="">/);

    const none = decode((await get('/featured-jobs?function=account-executive&location=austin-tx')).body);
    expect(none).toContain('0 jobs found');
    expect(none).toContain('Clear Filters');

    const junk =
      '/featured-jobs?function=%3Cscript%3Ealert(1)%3C%2Fscript%3E&location=austin-tx&location=new-york-ny&sort=../../etc';
    const all = (await get(junk)).body;
    expect(decode(all)).toContain('6 jobs found');
    expect(all).not.toMatch(/alert|<script>a|etc\b/);
  });

  it('sends the document without the HTML of a remote that hangs, within the fragment timeout; other pages keep theirs', async () => {
    await setJobs('hang');
    const started = Date.now();
    const response = await get('/featured-jobs');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(response.status).toBe(200);
    expect(response.body).not.toContain('data-remote="jobs"');
    // The document falls back to booting the page in the browser, titled by the shell.
    expect(response.body).toContain('<title>NativeGTM</title>');
    // The whole fallback block, intact (nginx's sub_filter once garbled it: see fragments.js).
    expect(response.body).toMatch(/<meta name="?description"? content="NativeGTM: one AI voice interview[^"]*">/);
    expect(response.body).toMatch(/<noscript>NativeGTM needs JavaScript to show this page[^<]*<\/noscript>\s*<\/body>/);
    expect(textOf((await get('/')).body)).toContain('Land high-paying AI-native GTM jobs');
  });

  it('waits for a hanging remote as long as its configured fragment timeout, and no longer', async () => {
    // Ports B+15..B+19 (built-in) and B+25..B+29 (nginx): see the port plan in tests/support/testSite.js.
    const slow = await start(1200, -55);
    try {
      await setJobs('hang');
      const started = Date.now();
      const response = await rawGet(slow.port, '/featured-jobs');
      const elapsed = Date.now() - started;
      expect(response.body).not.toContain('data-remote="jobs"');
      // At least the timeout it was given (not the default 400 ms), well before the remote's 8 s.
      expect(elapsed).toBeGreaterThanOrEqual(1100);
      expect(elapsed).toBeLessThan(4000);
    } finally {
      await slow.stop();
    }
  });

  // With only the page's files failing, the built-in server may still hold this build's copy of a variant it was
  // asked for before (a file of a build never changes): each case asks for a variant no other test asks for.
  it.each([
    ['down', 'all', ''],
    ['error', 'all', ''],
    ['error', 'page', '?location=us-remote&function=product-management'],
    ['redirect', 'all', ''],
    ['redirect', 'page', '?location=us-remote&function=account-executive'],
    ['hang', 'page', '?location=us-remote&function=consumer-marketing'],
  ] as const)(
    'never pastes anything from a remote that answers %s (%s of its server files) into the document',
    async (mode, scope, query) => {
      await setJobs(mode, scope);
      const started = Date.now();
      const response = await get(`/featured-jobs${query}`);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(response.status).toBe(200);
      expect(response.body).not.toMatch(/database exploded|secret|Internal Server Error|REDIRECTED/);
      expect(response.body).not.toContain('data-remote="jobs"');
      expect(textOf((await get('/employers')).body)).toContain('Hire Vetted AI-Native GTM Talent');
    },
  );

  it.each([
    ['listed values', 'function=product-marketing&location=austin-tx', 'product-marketing--austin-tx--_'],
    ['an unknown parameter with encoding', 'utm_source=news%20letter&sort=date-posted', '_--_--date-posted'],
    ['a repeat without a value', 'function=product-marketing&function', '_--_--_'],
    ['a repeat without "="', 'function&function=product-marketing', '_--_--_'],
    ['a longer name', 'functions=x&function=account-executive', 'account-executive--_--_'],
    ['an encoded value', 'function=product%2Dmarketing', null],
    ['an encoded name', 'f%75nction=product-marketing', null],
  ] as const)('picks the Featured Jobs HTML for %s as the other server does', async (_case, query, variant) => {
    const html = (await get(`/featured-jobs?${query}`)).body;
    const given = html.match(/data-remote="jobs" data-build="[^"]+" data-variant="([^"]+)"/)?.[1] ?? null;
    expect(given).toBe(variant);
    // Without the page's HTML, the document is the fallback that boots it in the browser.
    expect(html.includes('NativeGTM needs JavaScript to show this page')).toBe(variant === null);
  });

  it('reads runs of slashes as one and a backslash as a character, as nginx does, never as a host name', async () => {
    const response = await get('//employers');
    expect(response.status).toBe(200);
    expect(textOf(response.body)).toContain('Hire Vetted AI-Native GTM Talent');
    expect((await get('//no.such.host/')).status).toBe(404);
    // URL parsers read a backslash as "/": the first made a host name of "employers" (the home page, 200), the second
    // ended the built-in server.
    for (const path of ['/\\employers', '/\\']) {
      const answer = await get(path);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(answer.body).toContain('Oops! Page not found');
    }
    expect((await get('/employers')).status).toBe(200);
  });

  it("sends none of the visitor's query or headers to a remote", async () => {
    faulty.seen.length = 0;
    const html = (
      await get('/featured-jobs?function=account-executive&sort=date-posted&utm_source=leak-query', {
        Cookie: 'session=leak-cookie',
        Authorization: 'Bearer leak-token',
        Range: 'bytes=0-10',
      })
    ).body;
    expect(html).toContain('data-variant="account-executive--_--date-posted"');
    const sent = JSON.stringify(faulty.seen);
    expect(faulty.seen.length).toBeGreaterThan(0);
    expect(sent).not.toMatch(/leak|range|bytes=/i);
  });

  it('keeps a strict CSP on composed documents', async () => {
    const csp = String((await get('/featured-jobs')).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toContain(faulty.url);
  });
});

describe('the builds', () => {
  it("keep every page's content out of the shell's build: it comes from the remotes", () => {
    const shellDist = join(repoRoot, 'shell/dist');
    const texts = readdirSync(shellDist, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(js|html|css|json)$/.test(file))
      .map((file) => readFileSync(join(shellDist, file), 'utf8'));
    expect(texts.length).toBeGreaterThan(5);
    for (const phrase of ['high-paying', 'Hire Vetted', 'Product Marketing Manager', 'Join the Beta']) {
      expect([phrase, texts.some((text) => text.includes(phrase))]).toEqual([phrase, false]);
    }
  });
});

describe.each(servers)('in the browser, %s', (name, start) => {
  let browser: Browser;
  let target: Target;

  beforeAll(async () => {
    browser = await launchChromium();
    target = await start(3000);
  });
  afterAll(async () => {
    await target?.stop();
    await browser?.close();
  });
  afterEach(() => faulty.setMode('up'));

  async function openPage(context?: BrowserContext): Promise<{ page: Page; errors: string[] }> {
    const page = await (context ?? browser).newPage();
    const errors = collectConsoleErrors(page);
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, errors };
  }

  /** Sums the page's layout shifts from its first paint on (CLS without the windows): read with layoutShift. */
  const watchLayoutShift = (page: Page) =>
    page.addInitScript(() => {
      const win = window as unknown as { __shift: number };
      win.__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
          if (!entry.hadRecentInput) win.__shift += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
  const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { __shift: number }).__shift);

  /** True once React owns the element (hydrated or rendered). */
  const ownedByReact = (page: Page, selector: string) =>
    page.waitForFunction((css) => {
      const element = document.querySelector(css);
      return element !== null && Object.keys(element).some((key) => key.startsWith('__reactFiber'));
    }, selector);

  it.each<[string, string]>([
    ...pages.map((page): [string, string] => [page.path, page.heading]),
    ['/featured-jobs?function=product-management&location=us-remote', 'Featured Jobs'],
  ])(
    '%s paints from the HTML before any script, then hydrates the same nodes and content: no errors, no shift, one React',
    async (path, heading) => {
      const { page, errors } = await openPage();
      await countReactRenderers(page);
      await watchLayoutShift(page);
      const scripts = gate();
      await page.route(/\/main\.[0-9a-f]+\.js$/, async (route) => {
        await scripts.wait;
        await route.continue();
      });
      await page.goto(target.url(path), { waitUntil: 'commit' });
      const h1 = page.getByRole('heading', { level: 1, name: heading });
      await h1.waitFor();
      await page.evaluate(() => {
        (window as unknown as { __h1: Element | null }).__h1 = document.querySelector('h1');
      });
      // What a reader and a crawler get from the HTML alone: the page's text and its links.
      const content = () =>
        page.evaluate(() => ({
          text: document.querySelector('main')?.textContent?.replace(/\s+/g, ' ').trim(),
          links: [...document.querySelectorAll('a[href]')].map((a) => `${a.textContent} -> ${a.getAttribute('href')}`),
        }));
      const server = await content();
      expect(server.text?.length).toBeGreaterThan(100);
      scripts.open();
      await ownedByReact(page, 'h1');
      await page.waitForLoadState('networkidle');
      // Hydrated, the page says and links exactly what its HTML did (the spec tests check what it says).
      expect(await content()).toEqual(server);
      expect(
        await page.evaluate(() => document.querySelector('h1') === (window as unknown as { __h1: Element }).__h1),
      ).toBe(true);
      expect(
        await page.evaluate(() => (window as unknown as { __reactRenderers: () => number }).__reactRenderers()),
      ).toBe(1);
      expect(await layoutShift(page)).toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it('answers an unknown path 404 with the 404 screen painted from the HTML, no shift when its script runs, and the path in the console', async () => {
    const { page, errors } = await openPage();
    await watchLayoutShift(page);
    const response = await page.goto(target.url('/careers/open-roles'));
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Oops! Page not found' }).waitFor();
    await ownedByReact(page, 'h1');
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await layoutShift(page)).toBe(0);
    // Besides the path, only Chromium's own line for the document's 404 status.
    expect(
      errors.filter((error) => !error.startsWith('Failed to load resource: the server responded with a status of 404')),
    ).toEqual(['404: no page at /careers/open-roles']);
    await page.close();
  });

  it('starts its JavaScript and remotes.json only once the page has been painted', async () => {
    const { page, errors } = await openPage();
    await page.goto(target.url('/employers'));
    await ownedByReact(page, 'h1');
    await page.waitForLoadState('networkidle');
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const app = resources.filter(
        (entry) => /\.js$|remotes\.json$/.test(entry.name) && !/paint-first/.test(entry.name),
      );
      return {
        paint: paint?.startTime,
        firstStart: Math.min(...app.map((entry) => entry.startTime)),
        started: app.map((entry) => new URL(entry.name).pathname),
      };
    });
    expect(timing.paint).toBeGreaterThan(0);
    expect(timing.started).toEqual(expect.arrayContaining(['/remotes.json', expect.stringMatching(/^\/main\./)]));
    expect(timing.firstStart).toBeGreaterThanOrEqual(timing.paint!);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('is interactive after hydration: filters, menu and client-side navigation', async () => {
    const { page, errors } = await openPage();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(target.url('/featured-jobs?location=new-york-ny'));
    await ownedByReact(page, 'select');
    await expect(page.getByRole('status').first().textContent()).resolves.toMatch(/job/);
    await page.getByLabel('Job Function').selectOption({ label: 'Product Management' });
    await page.waitForURL(/function=product-management/);
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    await page.getByRole('link', { name: 'Employers' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Hire Vetted AI-Native GTM Talent' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders afresh, without a hydration error, when the HTML comes from another build than the JavaScript', async () => {
    await setJobs('old-html', 'page');
    const path = '/featured-jobs?function=product-management';
    // nginx pastes what the remote answers: the browser gets the older build's HTML and must not hydrate it. The
    // built-in server checks the build itself and leaves it out: the browser renders the page on its own.
    const document = (await rawGet(target.port, path)).body;
    expect(document.includes('data-build="an-older-build"')).toBe(name.startsWith('nginx'));
    const { page, errors } = await openPage();
    await page.goto(target.url(path));
    await ownedByReact(page, 'h1');
    await page.getByText('3 jobs found').waitFor();
    expect(await page.getByRole('heading', { name: 'Unexpected Application Error!' }).count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each([['down'], ['hang'], ['error']] as const)(
    'boots the page in the browser when its remote answers %s for its HTML: loading, then the page; other pages keep their HTML',
    async (mode) => {
      await setJobs(mode);
      const { page, errors } = await openPage();
      // The remote's code arrives late: the loading state shows meanwhile.
      const code = gate();
      await page.route(/\/remoteEntry\.js$|mf-manifest\.json$/, async (route) => {
        if (route.request().url().startsWith(faulty.url)) await code.wait;
        await route.continue();
      });
      await page.goto(target.url('/featured-jobs'));
      await page.getByRole('status').filter({ hasText: 'Loading page…' }).first().waitFor();
      code.open();
      await page.getByRole('heading', { level: 1, name: 'Featured Jobs' }).waitFor();
      await page.getByText('6 jobs found').waitFor();
      expect(errors).toEqual([]);
      expect(textOf((await rawGet(target.port, '/coming-soon')).body)).toContain('NativeGTM is Coming Soon');
      await page.close();
    },
  );

  it('falls back to the client flow for a remote that is down with its code: loading, then the error screen', async () => {
    await setJobs('error');
    const { page } = await openPage();
    // The remote's code is down too, after a moment.
    const code = gate();
    await page.route(`${faulty.url}/**`, async (route) => {
      await code.wait;
      await route.fulfill({ status: 503, body: 'down' });
    });
    await page.goto(target.url('/featured-jobs'));
    await page.getByRole('status').filter({ hasText: 'Loading page…' }).first().waitFor();
    code.open();
    await page.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' }).waitFor();
    await expect(page.getByRole('button', { name: 'Try again' }).isVisible()).resolves.toBe(true);
    expect(await page.content()).not.toMatch(/database exploded|Internal Server Error/);
    expect(textOf((await rawGet(target.port, '/coming-soon')).body)).toContain('NativeGTM is Coming Soon');
    await page.close();
  });

  describe('with JavaScript off', () => {
    let context: BrowserContext;
    beforeAll(async () => {
      context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    });
    afterAll(async () => {
      await context?.close();
    });

    it('shows every page, with header links reachable on a phone, and links that navigate', async () => {
      const { page } = await openPage(context);
      for (const { path, heading } of pages) {
        await page.goto(target.url(path));
        await expect(page.getByRole('heading', { level: 1, name: heading }).isVisible()).resolves.toBe(true);
      }
      await page.goto(target.url('/'));
      // The skip link is plain HTML: the first Tab stop before (and without) any script.
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to main content');
      const employers = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Employers' });
      await expect(employers.isVisible()).resolves.toBe(true);
      // On screen at 375 px, not just rendered somewhere.
      const box = await employers.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
      await employers.click();
      await page.waitForURL(/\/employers$/);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Hire Vetted AI-Native GTM Talent' }).isVisible(),
      ).resolves.toBe(true);
      await page.close();
    });

    it('shows the 404 page, whose links navigate', async () => {
      const { page } = await openPage(context);
      const response = await page.goto(target.url('/no/such/page'));
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'Oops! Page not found' }).isVisible()).resolves.toBe(
        true,
      );
      await page.getByRole('main').getByRole('link').first().click();
      await page.waitForURL((url) => url.pathname !== '/no/such/page');
      await expect(page.getByRole('heading', { level: 1 }).isVisible()).resolves.toBe(true);
      await page.close();
    });

    it('filters Featured Jobs with a plain GET form and its submit button', async () => {
      const { page } = await openPage(context);
      await page.goto(target.url('/featured-jobs'));
      await page.getByLabel('Job Function').selectOption({ label: 'Product Management' });
      await page.getByRole('button', { name: 'Show jobs' }).click();
      await page.waitForURL(/function=product-management/);
      await page.getByText('3 jobs found').waitFor();
      await page.close();
    });
  });

  it('has no submit button on the filters when JavaScript runs', async () => {
    const { page } = await openPage();
    await page.goto(target.url('/featured-jobs'));
    await ownedByReact(page, 'select');
    expect(await page.getByRole('button', { name: 'Show jobs' }).count()).toBe(0);
    await page.close();
  });
});

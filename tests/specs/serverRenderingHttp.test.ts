import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rawGet } from '../support/rawGet';
import { eventually } from '../support/eventually';
import {
  decode,
  ORIGIN,
  repoRoot,
  serverRenderingTargets,
  textOf,
  type Target,
} from '../support/serverRenderingTargets';
import { pages, ports as testPorts } from '../support/site';

// Pages rendered on the server (each remote's build), composed per request by the shell's server, read over HTTP:
// against the built-in server and against nginx with the generated configuration. (In the browser:
// serverRenderingBrowser.test.ts.)

jest.setTimeout(60_000);
// Ports B+70..B+84, apart from serverRenderingBrowser.test's, which jest may run at the same time: see the port plan
// in tests/support/testSite.js.
const targets = serverRenderingTargets(testPorts.shell! + 70);

/**
 * How long the documents these tests read wait for a page's HTML: long enough that a busy machine never turns one into
 * the fallback document (400 ms did, once, beside another test run). The tests of a failing remote read another server
 * of the same kind whose documents wait 400 ms, so that each hang costs them little; how fast the composer gives up is
 * the bench's to measure.
 */
const FRAGMENT_TIMEOUT_MS = 3000;
const FAILING_TIMEOUT_MS = 400;

describe.each(targets.servers)('%s', (name, start) => {
  let target: Target;
  let failing: Target;
  beforeAll(async () => {
    target = await start(FRAGMENT_TIMEOUT_MS);
    // Ports B+5..B+9 (built-in) and B+15..B+19 (nginx): see the port plan in tests/support/testSite.js.
    failing = await start(FAILING_TIMEOUT_MS, -65, { perRequest: true });
  });
  afterAll(async () => {
    await target?.stop();
    await failing?.stop();
  });
  afterEach(() => targets.faulty.setMode('up'));

  const get = (path: string, headers: Record<string, string> = {}) => rawGet(target.port, path, headers);
  const getFailing = (path: string) => rawGet(failing.port, path);

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

  it("says in Server-Timing how the page's fragment came: its remote, the time waited, a cache hit or miss", async () => {
    const timings = [];
    for (const path of ['/employers', '/employers?from=timing'])
      timings.push((await get(path)).headers['server-timing']);
    if (name.startsWith('nginx')) {
      // nginx sends its headers before its includes run: it cannot say how they went.
      expect(timings).toEqual([undefined, undefined]);
      return;
    }
    for (const timing of timings) {
      expect(timing).toMatch(/^fragment;desc="employers: (cache hit|cache miss|document reused)";dur=\d+(\.\d)?$/);
    }
    // A hanging remote: the document is sent without its fragment, and says it ran out of time.
    await targets.setJobs(failing, 'hang');
    expect((await getFailing('/featured-jobs?from=timing')).headers['server-timing']).toMatch(
      /^fragment;desc="jobs: timed out";dur=\d+(\.\d)?$/,
    );
    expect((await getFailing('/nope')).headers['server-timing']).toBeUndefined();
  });

  it('sends the document without the HTML of a remote that hangs, within the fragment timeout; other pages keep theirs', async () => {
    await targets.setJobs(failing, 'hang');
    const started = Date.now();
    const response = await getFailing('/featured-jobs');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(response.status).toBe(200);
    expect(response.body).not.toContain('data-remote="jobs"');
    // The document falls back to booting the page in the browser, titled by the shell.
    expect(response.body).toContain('<title>NativeGTM</title>');
    // The whole fallback block, intact (nginx's sub_filter once garbled it: see fragments.js).
    expect(response.body).toMatch(/<meta name="?description"? content="NativeGTM: one AI voice interview[^"]*">/);
    expect(response.body).toMatch(/<noscript>NativeGTM needs JavaScript to show this page[^<]*<\/noscript>\s*<\/body>/);
    expect(textOf((await getFailing('/')).body)).toContain('Land high-paying AI-native GTM jobs');
  });

  it('waits for a hanging remote as long as its configured fragment timeout, and no longer', async () => {
    // Ports B+15..B+19 (built-in) and B+25..B+29 (nginx): see the port plan in tests/support/testSite.js.
    const slow = await start(1200, -55);
    try {
      await targets.setJobs(target, 'hang');
      const started = Date.now();
      const response = await rawGet(slow.port, '/featured-jobs');
      const elapsed = Date.now() - started;
      expect(response.body).not.toContain('data-remote="jobs"');
      // At least the timeout it was given (not the 400 ms of the failing-remote servers), well before the remote's 8 s.
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
      await targets.setJobs(failing, mode, scope);
      const started = Date.now();
      const response = await getFailing(`/featured-jobs${query}`);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(response.status).toBe(200);
      expect(response.body).not.toMatch(/database exploded|secret|Internal Server Error|REDIRECTED/);
      expect(response.body).not.toContain('data-remote="jobs"');
      // Another remote's page still gets its HTML. This server gives every fragment 400 ms: on a busy machine the
      // employers page's may miss its first, as a visitor's would; once fetched it is cached, and the next has it.
      await eventually(
        async () => textOf((await getFailing('/employers')).body),
        (text) => text.includes('Hire Vetted AI-Native GTM Talent'),
        { timeoutMs: 5000, what: "the employers page's server HTML" },
      );
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
    // A variant not held ready yet is composed for its request, within a visitor's 400 ms: on a busy machine its file
    // may come too late, and the document is the fallback, as a visitor's would be. Read again until the page's HTML
    // is in (a wrong variant still fails below), or, where none is to be, at once.
    const html = await eventually(
      async () => (await get(`/featured-jobs?${query}`)).body,
      (body) => variant === null || body.includes('data-remote="jobs"'),
      { timeoutMs: 5000, what: `the HTML of /featured-jobs?${query}` },
    );
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
    // A server that never composed the page: the document is composed for this request, the remote asked now.
    // (Ports B+15..B+19 and B+25..B+29, as the hanging-remote test's, which has stopped its server.)
    const fresh = await start(2000, -55);
    try {
      targets.faulty.seen.length = 0;
      const html = (
        await rawGet(fresh.port, '/featured-jobs?function=account-executive&sort=date-posted&utm_source=leak-query', {
          Cookie: 'session=leak-cookie',
          Authorization: 'Bearer leak-token',
          Range: 'bytes=0-10',
        })
      ).body;
      expect(html).toContain('data-variant="account-executive--_--date-posted"');
      const sent = JSON.stringify(targets.faulty.seen);
      expect(targets.faulty.seen.length).toBeGreaterThan(0);
      expect(sent).not.toMatch(/leak|range|bytes=/i);
    } finally {
      await fresh.stop();
    }
  });

  it('keeps a strict CSP on composed documents', async () => {
    const csp = String((await get('/featured-jobs')).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toContain(targets.faulty.url);
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

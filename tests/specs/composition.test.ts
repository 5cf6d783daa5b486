import type { Page } from 'playwright-core';
import { FIELD_DATA_PATH } from '@nativegtm/contract/fieldData';
import { chromiumPerFile } from '../support/chromium';
import {
  collectConsoleErrors,
  countReactRenderers,
  navigateInApp,
  pages,
  ports,
  shellUrl,
  untilHydrated,
} from '../support/site';
import { eventually } from '../support/eventually';

const browser = chromiumPerFile();
let page: Page;

beforeEach(async () => {
  page = await browser().newPage();
});
afterEach(async () => {
  await page.close();
});

describe('the composed site', () => {
  it.each(pages)('renders $path with the page code of $remotePackage, loaded from its own port', async (route) => {
    const remoteRequests: string[] = [];
    page.on('request', (request) => {
      const { port, pathname } = new URL(request.url());
      if (Number(port) === ports[route.remotePackage]) remoteRequests.push(pathname);
    });

    await page.goto(shellUrl(route.path));

    await untilHydrated(page);

    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(route.heading);
    expect(remoteRequests).toEqual(expect.arrayContaining(['/mf-manifest.json', '/remoteEntry.js']));
    expect(remoteRequests.some((pathname) => /^\/__federation_expose_Page\.[0-9a-f]+\.js$/.test(pathname))).toBe(true);
  });

  it('loads only the remote of the route being opened (one remote down cannot block the others)', async () => {
    await page.goto(shellUrl('/coming-soon'));
    await untilHydrated(page);
    await page.getByRole('heading', { level: 1 }).waitFor();
    // Other pages are prefetched once the browser is idle after the load (the shell marks when): not before.
    await page.waitForFunction(() => performance.getEntriesByName('nativegtm:idle-prefetch').length > 0);
    const firstLoadPorts = await page.evaluate(() => {
      const idleAt = performance.getEntriesByName('nativegtm:idle-prefetch')[0]!.startTime;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime < idleAt)
        .map((entry) => Number(new URL(entry.name).port));
    });
    expect([...new Set([ports.shell, ...firstLoadPorts])].sort()).toEqual(
      [ports.shell, ports['coming-soon-mfe']].sort(),
    );
  });

  it('prefetches the pages the current page links to once idle: a click then shows the page without a request', async () => {
    // A slow first page (its manifest arrives after the document's load event, as on a busy machine) must not
    // leave the idle prefetch without the links that page brings.
    await page.route(`http://localhost:${ports['candidates-mfe']}/mf-manifest.json`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    // The idle prefetch is done once the employers page's own chunk has arrived ('networkidle' may come earlier,
    // before the prefetch starts).
    const employersPage = page.waitForResponse((response) => {
      const { port, pathname } = new URL(response.url());
      return Number(port) === ports['employers-mfe'] && /^\/__federation_expose_Page\.[0-9a-f]+\.js$/.test(pathname);
    });
    await page.goto(shellUrl('/'));
    await untilHydrated(page);
    await page.getByRole('heading', { level: 1, name: 'Land high-paying AI-native GTM jobs' }).waitFor();
    await page.waitForFunction(() => performance.getEntriesByName('nativegtm:idle-prefetch').length > 0);
    await employersPage;
    await page.waitForLoadState('networkidle');

    const requests: string[] = [];
    page.on('request', (request) => {
      // Chromium asks for the favicon again when the title changes, and the field-data collector, when it has loaded
      // by then, sends the view the click ended (docs/field-data.md): the page needs nothing else.
      const { pathname } = new URL(request.url());
      if (pathname !== '/favicon.svg' && pathname !== FIELD_DATA_PATH) requests.push(request.url());
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Employers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hire Vetted AI-Native GTM Talent' }).waitFor();
    expect(requests).toEqual([]);
  });

  it('with Save-Data, prefetches nothing when idle, but still the page behind a link the pointer moves over', async () => {
    await page.addInitScript(() =>
      Object.defineProperty(navigator, 'connection', { configurable: true, value: { saveData: true } }),
    );
    const employers: string[] = [];
    page.on('request', (request) => {
      if (Number(new URL(request.url()).port) === ports['employers-mfe']) employers.push(request.url());
    });
    await page.goto(shellUrl('/featured-jobs'));
    await untilHydrated(page);
    await page.getByRole('heading', { level: 1, name: 'Featured Jobs' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 3000 })));
    expect(employers).toEqual([]);

    const manifest = page.waitForRequest(`http://localhost:${ports['employers-mfe']}/mf-manifest.json`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Employers' }).hover();
    await manifest;
  });

  it('navigates between remotes on the client: one document, one React renderer for every route', async () => {
    await countReactRenderers(page);
    let documentLoads = 0;
    page.on('load', () => {
      documentLoads += 1;
    });

    await page.goto(shellUrl('/coming-soon'));

    await untilHydrated(page);
    await page.getByRole('heading', { name: 'NativeGTM is Coming Soon' }).waitFor();
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Employers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hire Vetted AI-Native GTM Talent' }).waitFor();
    await page.waitForURL(shellUrl('/employers'));

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Candidates' }).click();
    await page.getByRole('heading', { level: 1, name: 'Land high-paying AI-native GTM jobs' }).waitFor();

    await navigateInApp(page, '/featured-jobs');
    await page.getByRole('heading', { level: 1, name: 'Featured Jobs' }).waitFor();

    await navigateInApp(page, '/no-such-page');
    await page.getByRole('heading', { level: 1, name: 'Oops! Page not found' }).waitFor();

    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(documentLoads).toBe(1);
    expect(
      await page.evaluate(() => (window as unknown as { __reactRenderers: () => number }).__reactRenderers()),
    ).toBe(1);
  });

  it('starts a new page at the top, and Back and Forward return to where the visitor was, in one document', async () => {
    const scrolledTo = (y: number) => page.waitForFunction((top) => Math.round(window.scrollY) === top, y);
    await page.goto(shellUrl('/'));
    await untilHydrated(page);
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    await page.evaluate(() => window.scrollTo(0, 1500));
    await scrolledTo(1500);

    // Playwright's click and focus() first scroll the link into view (for the sticky header, Chromium moves the page):
    // the link gets focus without scrolling, as after Tab, and Enter follows it.
    const employers = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Employers' });
    await employers.evaluate((link: HTMLElement) => link.focus({ preventScroll: true }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Hire Vetted AI-Native GTM Talent' }).waitFor();
    await scrolledTo(0);
    await page.evaluate(() => window.scrollTo(0, 400));
    await scrolledTo(400);

    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Land high-paying AI-native GTM jobs' }).waitFor();
    await scrolledTo(1500);
    await page.goForward();
    await page.getByRole('heading', { level: 1, name: 'Hire Vetted AI-Native GTM Talent' }).waitFor();
    await scrolledTo(400);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it('shows the 404 screen for an unknown path and logs the path', async () => {
    const errors = collectConsoleErrors(page);
    const response = await page.goto(shellUrl('/jobs/does-not-exist?x=1'));
    // A real 404 status, with the 404 screen in the HTML (see serverRenderingHttp.test.ts).
    expect(response?.status()).toBe(404);
    await untilHydrated(page);

    await page.getByText('404', { exact: true }).waitFor({ state: 'visible' });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Oops! Page not found');
    // Logged from an effect, after the render untilHydrated waits for.
    await eventually(
      async () => errors,
      (lines) => lines.includes('404: no page at /jobs/does-not-exist'),
      { what: 'the console errors' },
    );
    expect(await page.title()).toBe('Page not found · NativeGTM');

    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.getByRole('heading', { level: 1, name: 'Land high-paying AI-native GTM jobs' }).waitFor();
    await page.waitForURL(shellUrl('/'));
  });

  it('keeps the other routes working when one remote is unreachable', async () => {
    await page.route(`http://localhost:${ports['jobs-mfe']}/**`, (route) => route.abort('connectionrefused'));
    collectConsoleErrors(page);

    await page.goto(shellUrl('/featured-jobs'));

    await untilHydrated(page);
    await page.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor({ state: 'visible' });
    await expect(page.getByText(/at \w+ \(/).count()).resolves.toBe(0); // no stack trace for visitors

    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.getByRole('heading', { level: 1, name: 'Land high-paying AI-native GTM jobs' }).waitFor();
    await navigateInApp(page, '/coming-soon');
    await page.getByRole('heading', { level: 1, name: 'NativeGTM is Coming Soon' }).waitFor();
  });

  it('serves each remote alone on its own port for its team', async () => {
    await page.goto(`http://localhost:${ports['coming-soon-mfe']}/`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('NativeGTM is Coming Soon');
  });
});

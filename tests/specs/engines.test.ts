import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployables } from '@nativegtm/shared/server/site.js';
import { enginesUnderTest, launchEngine } from '../support/engines';
import type { Session } from '../support/engines/session';
import { startFaultyRemote } from '../support/faultyRemote';
import { allJobTitles } from '../support/jobs';
import { screens } from '../support/screens';
import { ports } from '../support/site';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSite } = require('@nativegtm/shared/server/run-site.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { shippedRemotes } = require('@nativegtm/shared/pages');

// The composed site in every browser engine a visitor may bring: Chromium, Firefox (Gecko) and WebKit (Safari's
// engine). One spec, run once per engine through the driver layer in support/engines/; TEST_ENGINES picks engines.
// What only Chromium can show (requests, CSP reports, Lighthouse, nginx, keyboard paths) stays in the other specs.

jest.setTimeout(120_000);

type Engine = Awaited<ReturnType<typeof launchEngine>>;

const engineTitles: Record<string, string> = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };
const shellOrigin = `http://localhost:${ports.shell}`;
const jobsPackage = deployables.find((d) => d.remote === 'jobs')!;

/**
 * A copy of the shell whose Featured Jobs remote can go offline and come back, code and all, as a crashed and
 * restarted remote does: the browser and the shell's server both meet it.
 */
async function startSiteWithFlakyJobs() {
  // Not +90: with the default base that is 4190, a port browsers refuse to connect to (ManageSieve).
  const shellPort = ports.shell! + 95;
  const remote = await startFaultyRemote(join(jobsPackage.dir, 'dist'), shellPort + 1, shellOrigin);
  const remotesFile = join(mkdtempSync(join(tmpdir(), 'nativegtm-engines-')), 'remotes.json');
  const entries = shippedRemotes({ portOf: (page: { package: string }) => ports[page.package] });
  writeFileSync(remotesFile, JSON.stringify({ ...entries, jobs: `${remote.url}/mf-manifest.json` }));
  const shell = deployables.filter((d) => d.role === 'host');
  const site = await startSite(shell, { ports: { shell: shellPort }, remotesFile });
  return {
    origin: `http://localhost:${shellPort}`,
    remote,
    stop: () => Promise.all([site.stop(), remote.stop()]),
  };
}

/** Keeps the h1 the server sent, before any of the page's scripts run: hydration must keep that very node. */
function rememberServerHeading() {
  document.addEventListener('DOMContentLoaded', () => {
    Object.assign(window, { __serverHeading: document.querySelector('h1') });
  });
}

describe.each(enginesUnderTest())('the composed site in %s', (engineName) => {
  const title = engineTitles[engineName]!;
  let engine: Engine;
  let origin: string;
  let session: Session;

  beforeAll(async () => {
    engine = await launchEngine(engineName);
    origin = await engine.origin(shellOrigin);
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
  });
  afterEach(async () => {
    await session?.close();
  });

  async function open(path: string, viewport = { width: 1280, height: 900 }): Promise<void> {
    session = await engine.newSession(viewport);
    await session.addInitScript(rememberServerHeading);
    await session.goto(`${origin}${path}`);
  }

  /** Waits for the h1 to read `text`, as React's (hydrated or rendered) node. */
  async function untilScreen(text: string): Promise<void> {
    await session.waitFor(
      (expected: string) => {
        const h1 = document.querySelector('h1');
        return (
          h1 !== null && h1.textContent === expected && Object.keys(h1).some((key) => key.startsWith('__reactFiber'))
        );
      },
      text,
      { what: `the screen "${text}", rendered by React`, timeoutMs: 20_000 },
    );
    // The shell's effects (focus management, the skip link) run in a task after the commit.
    await session.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
  }

  const markDocument = () => session.evaluate(() => Object.assign(window, { __sameDocument: true }) && true);
  const isSameDocument = () =>
    session.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

  /** What the engine's console showed, less the lines a test expects. */
  async function unexpectedErrors(...expected: RegExp[]): Promise<string[]> {
    return (await session.consoleErrors()).filter((line) => !expected.some((pattern) => pattern.test(line)));
  }

  describe(`${title}: every screen`, () => {
    it.each(screens.filter((screen) => !screen.downRemote))(
      '$name: the server HTML is hydrated in place, with its h1, title and content, and no console error',
      async (screen) => {
        await open(screen.path);
        await untilScreen(screen.heading);

        expect(await session.evaluate(() => document.title)).toBe(screen.title);
        // A page's HTML is hydrated where it is; the 404 screen's server HTML gives way to the shell's own screen.
        const headings = await session.evaluate(() => ({
          count: document.querySelectorAll('h1').length,
          kept: document.querySelector('h1') === (window as unknown as { __serverHeading?: Element }).__serverHeading,
        }));
        expect(headings).toEqual({ count: 1, kept: screen.name !== '404' });
        const content = await session.evaluate(() => ({
          links: document.querySelectorAll('a[href]').length,
          text: document.body.innerText.length,
          stylesApplied: getComputedStyle(document.body).fontFamily !== '' && document.styleSheets.length > 1,
        }));
        expect(content.links).toBeGreaterThan(2);
        expect(content.text).toBeGreaterThan(200);
        expect(content.stylesApplied).toBe(true);
        // The 404 screen logs the path it could not find (and some engines log the 404 document itself).
        const expected = screen.name === '404' ? [/^404: no page at \/no-such-page$/, /status of 404/] : [];
        expect(await unexpectedErrors(...expected)).toEqual([]);
        if (screen.name === '404') expect(await session.consoleErrors()).toContain('404: no page at /no-such-page');
      },
    );

    it('error screen: a remote that is offline shows the fallback, and Try again recovers once it is back', async () => {
      const site = await startSiteWithFlakyJobs();
      try {
        site.remote.setMode('offline');
        session = await engine.newSession({ width: 1280, height: 900 });
        await session.goto(`${await engine.origin(site.origin)}/featured-jobs`);
        await untilScreen('Unexpected Application Error!');
        expect(await session.evaluate(() => document.title)).toBe('Something went wrong · NativeGTM');
        expect(await session.evaluate(() => document.body.innerText)).not.toMatch(/at \w+ \(|\.js:\d+/);
        await markDocument();

        site.remote.setMode('up');
        await session.click('button', { text: 'Try again' });
        await untilScreen('Featured Jobs');
        expect(await isSameDocument()).toBe(true);
        expect((await session.consoleErrors()).some((line) => line.includes('[shell] Remote "jobs"'))).toBe(true);
      } finally {
        await site.stop();
      }
    });
  });

  describe(`${title}: navigation`, () => {
    it('the header and footer links go through all four remotes on the client, in one document', async () => {
      await open('/featured-jobs');
      await untilScreen('Featured Jobs');
      await markDocument();

      await session.click('nav[aria-label="Main"] a[href="/employers"]');
      await untilScreen('Hire Vetted AI-Native GTM Talent');
      await session.click('nav[aria-label="Main"] a[href="/coming-soon"]');
      await untilScreen('NativeGTM is Coming Soon');
      await session.click('nav[aria-label="Footer"] a[href="/"]');
      await untilScreen('Land high-paying AI-native GTM jobs');

      expect(await session.url()).toBe(`${origin}/`);
      expect(await isSameDocument()).toBe(true);
      expect(await unexpectedErrors()).toEqual([]);
    });

    it('the mobile menu opens and closes at 375 px, and its links work', async () => {
      await open('/', { width: 375, height: 800 });
      await untilScreen('Land high-paying AI-native GTM jobs');
      expect(await session.evaluate(() => window.innerWidth)).toBe(375);

      const employersLinkShown = () =>
        session.evaluate(() => {
          const link = document.querySelector('nav[aria-label="Main"] a[href="/employers"]');
          if (!link) return false;
          const box = link.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && getComputedStyle(link).visibility !== 'hidden';
        });
      const expanded = () =>
        session.evaluate(() => document.querySelector('header button[aria-controls]')?.getAttribute('aria-expanded'));

      expect(await expanded()).toBe('false');
      expect(await employersLinkShown()).toBe(false);

      await session.click('header button[aria-controls]');
      expect(await expanded()).toBe('true');
      await session.waitFor(
        () => {
          const link = document.querySelector('nav[aria-label="Main"] a[href="/employers"]');
          return link !== null && link.getBoundingClientRect().height > 0;
        },
        undefined,
        { what: 'the menu to show its links' },
      );

      await session.click('header button[aria-controls]');
      expect(await expanded()).toBe('false');
      await session.waitFor(
        () => {
          const link = document.querySelector('nav[aria-label="Main"] a[href="/employers"]');
          return (
            link !== null &&
            (link.getBoundingClientRect().height === 0 || getComputedStyle(link).visibility === 'hidden')
          );
        },
        undefined,
        { what: 'the menu to hide its links again' },
      );

      await markDocument();
      await session.click('header button[aria-controls]');
      await session.waitFor(
        () =>
          (document.querySelector('nav[aria-label="Main"] a[href="/employers"]')?.getBoundingClientRect().height ?? 0) >
          0,
        undefined,
        { what: 'the menu to open' },
      );
      await session.click('nav[aria-label="Main"] a[href="/employers"]');
      await untilScreen('Hire Vetted AI-Native GTM Talent');
      expect(await isSameDocument()).toBe(true);
      expect(await expanded()).toBe('false');
      expect(await unexpectedErrors()).toEqual([]);
    });
  });

  describe(`${title}: Featured Jobs filters`, () => {
    const jobs = (query = '') => `${origin}/featured-jobs${query}`;
    const state = () =>
      session.evaluate(() => ({
        url: window.location.href,
        count: document.querySelector('main [role="status"]')?.textContent ?? null,
        titles: [...document.querySelectorAll('main article h2')].map((h2) => h2.textContent),
        function: (document.querySelector('select[name="function"]') as HTMLSelectElement | null)?.value,
        location: (document.querySelector('select[name="location"]') as HTMLSelectElement | null)?.value,
      }));
    const untilCount = (text: string) =>
      session.waitFor(
        (expected: string) => document.querySelector('main [role="status"]')?.textContent === expected,
        text,
        {
          what: `the count to read "${text}"`,
        },
      );

    it('filter on change, write the URL, survive a reload, and Clear Filters brings every job back', async () => {
      await open('/featured-jobs');
      await untilScreen('Featured Jobs');
      await untilCount('6 jobs found');
      expect((await state()).titles).toEqual(allJobTitles);
      // With JavaScript the filters apply on change: the form's submit button is only for visitors without it.
      expect(await session.evaluate(() => document.querySelector('main form button[type="submit"]'))).toBeNull();
      await markDocument();

      await session.select('select[name="function"]', 'product-management');
      await untilCount('3 jobs found');
      expect(await state()).toMatchObject({
        url: jobs('?function=product-management'),
        titles: ['Product Manager - SAAS', 'Senior Product Manager', 'Product Manager - Consumer'],
      });
      await session.select('select[name="location"]', 'us-remote');
      await untilCount('2 jobs found');
      expect(await state()).toMatchObject({
        url: jobs('?function=product-management&location=us-remote'),
        titles: ['Product Manager - SAAS', 'Senior Product Manager'],
      });
      expect(await isSameDocument()).toBe(true);

      await session.reload();
      await untilScreen('Featured Jobs');
      await untilCount('2 jobs found');
      expect(await state()).toMatchObject({
        function: 'product-management',
        location: 'us-remote',
        titles: ['Product Manager - SAAS', 'Senior Product Manager'],
      });

      await session.select('select[name="location"]', 'austin-tx');
      await untilCount('0 jobs found');
      await session.click('button', { text: 'Clear Filters' });
      await untilCount('6 jobs found');
      expect(await state()).toMatchObject({ url: jobs(), function: '', location: '', titles: allJobTitles });
      expect(await unexpectedErrors()).toEqual([]);
    });
  });
});

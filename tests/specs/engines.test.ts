import {
  appendFileSync,
  chmodSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rewriteBuildFile, writeIntegrityList } from '@nativegtm/build/integrity';
import { storeLayout } from '@nativegtm/store/layout';
import { writeLivePointer } from '@nativegtm/store/livePointer';
import { publishRelease } from '@nativegtm/store/publish';
import { deployables } from '@nativegtm/server/deployables';
import { enginesUnderTest, launchEngine } from '../support/engines';
import { watchPage } from '../support/engines/inPage';
import type { Session } from '../support/engines/session';
import { startFaultyRemote } from '../support/faultyRemote';
import { allJobTitles } from '../support/jobs';
import { pageChunk, plant, plantedRan, PLANTED_LINE } from '../support/planted';
import { screens } from '../support/screens';
import { startShellWithRemote } from '../support/shellWithRemote';
import { ports } from '../support/site';
import { eventually } from '../support/eventually';

// The composed site in every browser engine a visitor may bring: Chromium, Firefox (Gecko) and WebKit (Safari's
// engine). One spec, run once per engine through the driver layer in support/engines/; TEST_ENGINES picks engines.
// What only Chromium can show (requests and their interception, Lighthouse, nginx, keyboard paths, axe) stays in the
// other specs.

jest.setTimeout(120_000);

type Engine = Awaited<ReturnType<typeof launchEngine>>;
interface PageWatch {
  heading: Element | null;
  removed: number;
  violations: string[];
}

const engineTitles: Record<string, string> = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };
const shellOrigin = `http://localhost:${ports.shell}`;
const jobsPackage = deployables.find((d) => d.remote === 'jobs')!;

/** What a browser logs when a remote's server is gone: the shell's one line, and the engine's own about the loads. */
const remoteDownErrors = [
  /^\[shell\] Remote "jobs"/,
  // Firefox words a refused cross-origin fetch as a CORS failure ("CORS request did not succeed").
  /Failed to load resource|ERR_CONNECTION|ERR_EMPTY_RESPONSE|NetworkError|Load failed|Loading failed|CORS request did not succeed/,
  /RUNTIME-\d+|Federation Runtime/,
];

/**
 * A copy of the shell whose Featured Jobs remote can go offline and come back, code and all, as a crashed and
 * restarted remote does: the browser and the shell's server both meet it. `root`: the jobs files it serves.
 */
async function startSiteWithFlakyJobs(root = join(jobsPackage.dir, 'dist'), releasesDir?: string) {
  // Not +90: with the default base that is 4190, a port browsers refuse to connect to (ManageSieve).
  const shellPort = ports.shell! + 95;
  const remote = await startFaultyRemote(root, shellPort + 1, shellOrigin);
  try {
    const shell = await startShellWithRemote({
      port: shellPort,
      ports,
      remote: 'jobs',
      manifestUrl: `${remote.url}/mf-manifest.json`,
      releasesDir,
    });
    return {
      origin: shell.origin,
      remote,
      metrics: shell.metrics,
      stop: () => Promise.all([shell.stop(), remote.stop()]),
    };
  } catch (error) {
    await remote.stop();
    throw error;
  }
}

describe.each(enginesUnderTest())('the composed site in %s', (engineName) => {
  const title = engineTitles[engineName]!;
  let engine: Engine;
  let origin: string;
  let session: Session | undefined;

  beforeAll(async () => {
    engine = await launchEngine(engineName);
    origin = await engine.origin(shellOrigin);
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
  });
  afterEach(async () => {
    // Cleared first: a test that failed before opening its own session must not close the previous one again.
    const closing = session;
    session = undefined;
    await closing?.close();
  });

  /** The current test's session. */
  const tab = (): Session => {
    if (!session) throw new Error('No session: open() first');
    return session;
  };

  async function open(path: string, viewport = { width: 1280, height: 900 }, siteOrigin = origin): Promise<void> {
    session = await engine.newSession(viewport);
    await session.addInitScript(watchPage);
    await session.goto(`${siteOrigin}${path}`);
  }

  const untilScreen = (heading: string) => tab().untilRendered(heading);

  const markDocument = () => tab().evaluate(() => Object.assign(window, { __sameDocument: true }) !== null);
  const isSameDocument = () =>
    tab().evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

  /** What the engine's console showed, less the lines a test expects; and no CSP violation. */
  async function unexpectedErrors(...expected: RegExp[]): Promise<string[]> {
    const violations = await tab().evaluate(
      () => (window as unknown as { __pageWatch?: PageWatch }).__pageWatch?.violations ?? [],
    );
    const errors = (await tab().consoleErrors()).filter((line) => !expected.some((pattern) => pattern.test(line)));
    return [...errors, ...violations.map((violation) => `CSP violation: ${violation}`)];
  }

  describe(`${title}: every screen`, () => {
    it.each(screens.filter((screen) => !screen.downRemote))(
      '$name: the server HTML is hydrated in place, with its h1, title and content, and no console error',
      async (screen) => {
        // One request first, so the shell's server holds the page's fragments (and keeps them fresh while the page is
        // asked for): on a loaded machine a cold fetch from the remote can outlast the 400 ms a document waits for it,
        // and the page is then rendered in the browser, by design. This test is about the engine's hydration.
        await fetch(`${shellOrigin}${screen.path}`);
        await open(screen.path);
        await untilScreen(screen.heading);

        expect(await tab().evaluate(() => document.title)).toBe(screen.title);
        // The server sent the screen's h1 (not a client render after a fragment timeout), and hydration kept every
        // node of a page; the 404 screen's server HTML gives way to the shell's own screen.
        const watch = await tab().evaluate(() => {
          const state = (window as unknown as { __pageWatch: PageWatch }).__pageWatch;
          return {
            serverSentHeading: state.heading?.textContent ?? null,
            headings: document.querySelectorAll('h1').length,
            keptServerHeading: document.querySelector('h1') === state.heading,
            serverNodesRemoved: state.removed,
          };
        });
        expect(watch.serverSentHeading).toBe(screen.heading);
        expect(watch.headings).toBe(1);
        if (screen.name === '404') {
          expect(watch.serverNodesRemoved).toBeGreaterThan(0);
        } else {
          expect({ keptServerHeading: watch.keptServerHeading, serverNodesRemoved: watch.serverNodesRemoved }).toEqual({
            keptServerHeading: true,
            serverNodesRemoved: 0,
          });
        }

        const readContent = () =>
          tab().evaluate(() => ({
            links: document.querySelectorAll('a[href]').length,
            text: document.body.innerText.length,
            // The design tokens are applied, and every stylesheet of the document (the shell's, the page's) loaded.
            tokens: getComputedStyle(document.documentElement).getPropertyValue('--font-family-sans').trim() !== '',
            stylesheets: [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(
              (link) => link.sheet !== null,
            ),
          }));
        // Stylesheets of pages prefetched once idle are added at any moment and load a little later: wait until the
        // browser has settled every one, loaded or failed (its sheet, or its fetch in the resource timings), a link
        // added meanwhile included; the expectations below then say what did not load.
        await tab().evaluate(async () => {
          const settled = (link: HTMLLinkElement) =>
            link.sheet !== null || performance.getEntriesByName(link.href).length > 0;
          for (;;) {
            const pending = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter(
              (link) => !settled(link),
            );
            if (pending.length === 0) return true;
            const fired = pending.map(
              (link) =>
                new Promise((resolve) => {
                  link.addEventListener('load', resolve, { once: true });
                  link.addEventListener('error', resolve, { once: true });
                }),
            );
            // A link added while these load is looked at on the next pass.
            await Promise.race([Promise.all(fired), new Promise((resolve) => setTimeout(resolve, 100))]);
          }
        });
        const content = await readContent();
        expect(content.links).toBeGreaterThan(2);
        expect(content.text).toBeGreaterThan(200);
        expect(content.tokens).toBe(true);
        // The shell's one stylesheet, on a page also the page's own (and those of pages prefetched once idle).
        expect(content.stylesheets.length).toBeGreaterThanOrEqual(screen.name === '404' ? 1 : 2);
        expect(content.stylesheets.every(Boolean)).toBe(true);

        // The 404 screen logs the path it could not find; some engines also log the 404 of the document itself.
        const expected =
          screen.name === '404'
            ? [/^404: no page at \/no-such-page$/, /^Failed to load resource: .*404.*\/no-such-page\)$/]
            : [];
        expect(await unexpectedErrors(...expected)).toEqual([]);
        if (screen.name === '404') {
          // Logged from an effect, after the render the screen check waits for.
          await eventually(
            () => tab().consoleErrors(),
            (lines) => lines.includes('404: no page at /no-such-page'),
            { what: 'the console errors' },
          );
        }
      },
    );

    it('error screen: a remote that is offline shows the fallback, and Try again recovers once it is back', async () => {
      const site = await startSiteWithFlakyJobs();
      try {
        site.remote.setMode('offline');
        await open('/featured-jobs', undefined, await engine.origin(site.origin));
        await untilScreen('Unexpected Application Error!');
        // The error screen sets its title in an effect, after the render untilScreen waits for.
        await tab().waitFor((title) => document.title === title, 'Something went wrong · NativeGTM', {
          what: 'the title "Something went wrong · NativeGTM"',
        });
        expect(await tab().evaluate(() => document.body.innerText)).not.toMatch(/at \w+ \(|\.js:\d+/);
        await markDocument();

        site.remote.setMode('up');
        await tab().click('button', { text: 'Try again' });
        await untilScreen('Featured Jobs');
        expect(await isSameDocument()).toBe(true);
        expect((await tab().consoleErrors()).some((line) => line.startsWith('[shell] Remote "jobs"'))).toBe(true);
        expect(await unexpectedErrors(...remoteDownErrors)).toEqual([]);
      } finally {
        await site.stop();
      }
    });

    it('a reload while a remote is still loading reports nothing: the browser cut the load short', async () => {
      const site = await startSiteWithFlakyJobs();
      try {
        // The jobs remote answers 3 s late: its files are still coming when the visitor reloads. Firefox and WebKit
        // abort those loads as the reload starts, well before the old page's pagehide (the new document waits for
        // its fragment first).
        site.remote.setMode('slow');
        await open('/featured-jobs', undefined, await engine.origin(site.origin));
        // Past the 500 ms the shell's server remembers the remote's failure to answer: the reload's document waits
        // its 400 ms for the fragments again, and the old page stays that long after its loads were cut.
        await new Promise((resolve) => setTimeout(resolve, 600));
        await tab().reload();
        site.remote.setMode('up');
        await untilScreen('Featured Jobs');
        expect((await tab().consoleErrors()).filter((line) => line.startsWith('[shell]'))).toEqual([]);
      } finally {
        await site.stop();
      }
    });
  });

  /**
   * The jobs page opened on `site` with a planted file: the planted code never ran, the error screen shows, the shell
   * said why, and the browser told the site which file it refused (an alert for operators, by remote and release).
   */
  async function expectRefused(site: Awaited<ReturnType<typeof startSiteWithFlakyJobs>>, refused: string) {
    await open('/featured-jobs', undefined, await engine.origin(site.origin));
    await untilScreen('Unexpected Application Error!');
    expect(await plantedRan(tab())).toBe(false);
    expect((await tab().consoleErrors()).some((line) => line.startsWith('[shell] Remote "jobs"'))).toBe(true);
    await eventually(
      () => site.metrics.registry.metrics(),
      (text) => /nativegtm_integrity_failures_total\{remote="jobs",release="[^"]+"\} [1-9]/.test(text),
      { what: "the site's count of refused files" },
    );
    expect(
      (await tab().consoleErrors()).some((line) => line.includes(`/${refused} was refused, its bytes are not`)),
    ).toBe(true);
  }

  describe(`${title}: a remote's file changed where it is served`, () => {
    // What someone who can write to the remote's files (its disk, a cache in front of it) does: a file gets a line of
    // their own. Its compressed copies go (the server would send those instead). Each case is caught by another link
    // of the chain: the remote's integrity list names its entry and its page's chunks, and its entry names every chunk
    // again, so a list rewritten to match a planted chunk still does not get it run.
    const tamperings = [
      { name: 'one chunk of the page', file: 'chunk', relist: false },
      { name: 'a chunk and the list that names it (the entry names it too)', file: 'chunk', relist: true },
      { name: 'the entry, remoteEntry.js', file: 'remoteEntry.js', relist: false },
    ] as const;

    it.each(tamperings)('$name: the planted code never runs, and the page shows the fallback', async (tampering) => {
      const tampered = mkdtempSync(join(tmpdir(), 'nativegtm-tampered-jobs-'));
      cpSync(join(jobsPackage.dir, 'dist'), tampered, { recursive: true });
      const chunk = pageChunk(tampered);
      const file = tampering.file === 'chunk' ? chunk : tampering.file;
      plant(tampered, file);
      if (tampering.relist) writeIntegrityList(tampered);
      const site = await startSiteWithFlakyJobs(tampered);
      try {
        await expectRefused(site, file);
        // The planted file was asked for, and refused: not a remote that never answered.
        expect(site.remote.requested().some((url) => url.startsWith(`/${file}`))).toBe(true);
      } finally {
        await site.stop();
        rmSync(tampered, { recursive: true, force: true });
      }
    });
  });

  describe(`${title}: a release's file changed in a node's copy of the store`, () => {
    // What someone who can write to a node's copy of the store, but not to the store's records, does. The remote is
    // served from its live release there, and the shell's server vouches for that release's list from the store: a
    // list rewritten to match planted files is not the one the release's record names, so it is not vouched for.
    const tamperings = [
      { name: 'one chunk of the page', relist: false, refused: 'chunk' },
      { name: 'a chunk, the entry and the list, rewritten to match', relist: true, refused: 'mf-manifest.json' },
    ] as const;

    it.each(tamperings)('$name: the planted code never runs, and the page shows the fallback', async (tampering) => {
      const store = mkdtempSync(join(tmpdir(), 'nativegtm-tampered-store-'));
      const layout = storeLayout(store, 'jobs');
      const { id } = publishRelease(layout, 'jobs', join(jobsPackage.dir, 'dist'), { commit: null, dirty: false });
      writeLivePointer(layout, id);
      const release = layout.release(id);
      // Published files are read-only: someone with the node's disk makes them writable first.
      for (const file of readdirSync(release, { recursive: true }) as string[]) chmodSync(join(release, file), 0o755);
      const list = () => JSON.parse(readFileSync(join(release, 'integrity.json'), 'utf8')) as Record<string, string>;
      const chunk = pageChunk(release);
      const built = list()[chunk]!;
      const planted = `${readFileSync(join(release, chunk), 'utf8')}${PLANTED_LINE}`;
      if (tampering.relist) {
        // The chunk, then the entry naming the planted chunk's integrity, each with its list written again.
        rewriteBuildFile(release, chunk, planted);
        const entry = readFileSync(join(release, 'remoteEntry.js'), 'utf8');
        rewriteBuildFile(release, 'remoteEntry.js', entry.replaceAll(built, list()[chunk]!));
      } else {
        plant(release, chunk);
      }
      const refused = tampering.refused === 'chunk' ? chunk : tampering.refused;
      const site = await startSiteWithFlakyJobs(release, store);
      try {
        await expectRefused(site, refused);
        // Not vouched for, the rewritten list names nothing: not even the planted chunk is fetched.
        expect(site.remote.requested().some((url) => url.startsWith(`/${chunk}`))).toBe(!tampering.relist);
      } finally {
        await site.stop();
        rmSync(store, { recursive: true, force: true });
      }
    });

    it("the page's server-rendered HTML: it is left out, nothing planted runs, and the page renders", async () => {
      const store = mkdtempSync(join(tmpdir(), 'nativegtm-tampered-store-'));
      const layout = storeLayout(store, 'jobs');
      const { id } = publishRelease(layout, 'jobs', join(jobsPackage.dir, 'dist'), { commit: null, dirty: false });
      writeLivePointer(layout, id);
      const release = layout.release(id);
      for (const file of readdirSync(release, { recursive: true }) as string[]) chmodSync(join(release, file), 0o755);
      const site = await startSiteWithFlakyJobs(release, store);
      try {
        // A script of the remote's own origin, which the site's CSP lets run: in every variant of the page's HTML,
        // and beside it.
        writeFileSync(join(release, 'planted.js'), PLANTED_LINE);
        for (const file of readdirSync(join(release, 'ssr/body'))) {
          appendFileSync(join(release, 'ssr/body', file), `<script src="${site.remote.url}/planted.js"></script>`);
        }
        const document = await (await fetch(`${site.origin}/featured-jobs`)).text();
        expect(document).not.toContain('planted.js');
        expect(document).not.toContain('data-remote="jobs"');
        // The release's head, untouched, is still pasted: the page's HTML alone was left out.
        expect(document).toContain('<!-- nativegtm head: remote="jobs"');
        await open('/featured-jobs', undefined, await engine.origin(site.origin));
        await untilScreen('Featured Jobs');
        expect(await plantedRan(tab())).toBe(false);
        expect(site.remote.requested().some((url) => url.startsWith('/planted.js'))).toBe(false);
        expect(await site.metrics.registry.metrics()).toMatch(
          /nativegtm_fragment_failures_total\{remote="jobs",reason="unvouched"\} [1-9]/,
        );
        expect(await unexpectedErrors()).toEqual([]);
      } finally {
        await site.stop();
        rmSync(store, { recursive: true, force: true });
      }
    });
  });

  describe(`${title}: navigation`, () => {
    it('the header and footer links go through all four remotes on the client, in one document', async () => {
      await open('/featured-jobs');
      await untilScreen('Featured Jobs');
      await markDocument();

      await tab().click('nav[aria-label="Main"] a[href="/employers"]');
      await untilScreen('Hire Vetted AI-Native GTM Talent');
      await tab().click('nav[aria-label="Main"] a[href="/coming-soon"]');
      await untilScreen('NativeGTM is Coming Soon');
      await tab().click('nav[aria-label="Footer"] a[href="/"]');
      await untilScreen('Land high-paying AI-native GTM jobs');

      expect(await tab().url()).toBe(`${origin}/`);
      expect(await isSameDocument()).toBe(true);
      expect(await unexpectedErrors()).toEqual([]);
    });

    it('the mobile menu opens and closes at 375 px, and its links work', async () => {
      await open('/', { width: 375, height: 800 });
      await untilScreen('Land high-paying AI-native GTM jobs');
      expect(await tab().evaluate(() => window.innerWidth)).toBe(375);

      /**
       * In the page: the menu as a visitor meets it, what its button says and whether its Employers link can be
       * seen; with `open`, whether it is that way round (expanded and shown, or collapsed and hidden).
       */
      const menu = (open: boolean | null) => {
        const button = document.querySelector('header button[aria-controls]');
        const link = document.querySelector('nav[aria-label="Main"] a[href="/employers"]');
        const box = link?.getBoundingClientRect();
        const state = {
          expanded: button?.getAttribute('aria-expanded') ?? null,
          linkShown:
            !!link && !!box && box.width > 0 && box.height > 0 && getComputedStyle(link).visibility !== 'hidden',
        };
        return open === null ? state : state.expanded === String(open) && state.linkShown === open;
      };
      const untilMenu = (open: boolean) =>
        tab().waitFor(menu, open, { what: `the menu to ${open ? 'open and show' : 'close and hide'} its links` });
      const expanded = async () => ((await tab().evaluate(menu, null)) as { expanded: string | null }).expanded;

      expect(await tab().evaluate(menu, null)).toEqual({ expanded: 'false', linkShown: false });

      await tab().click('header button[aria-controls]');
      await untilMenu(true);
      await tab().click('header button[aria-controls]');
      await untilMenu(false);

      await markDocument();
      await tab().click('header button[aria-controls]');
      await untilMenu(true);
      await tab().click('nav[aria-label="Main"] a[href="/employers"]');
      await untilScreen('Hire Vetted AI-Native GTM Talent');
      expect(await isSameDocument()).toBe(true);
      expect(await expanded()).toBe('false');
      expect(await unexpectedErrors()).toEqual([]);
    });
  });

  describe(`${title}: Featured Jobs filters`, () => {
    const jobs = (query = '') => `${origin}/featured-jobs${query}`;
    const state = () =>
      tab().evaluate(() => ({
        url: window.location.href,
        count: document.querySelector('main [role="status"]')?.textContent ?? null,
        titles: [...document.querySelectorAll('main article h2')].map((h2) => h2.textContent),
        function: (document.querySelector('select[name="function"]') as HTMLSelectElement | null)?.value,
        location: (document.querySelector('select[name="location"]') as HTMLSelectElement | null)?.value,
      }));
    const untilCount = (text: string) =>
      tab().waitFor(
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
      expect(await tab().evaluate(() => document.querySelector('main form button[type="submit"]') !== null)).toBe(
        false,
      );
      await markDocument();

      await tab().select('select[name="function"]', 'product-management');
      await untilCount('3 jobs found');
      expect(await state()).toMatchObject({
        url: jobs('?function=product-management'),
        titles: ['Product Manager - SAAS', 'Senior Product Manager', 'Product Manager - Consumer'],
      });
      await tab().select('select[name="location"]', 'us-remote');
      await untilCount('2 jobs found');
      expect(await state()).toMatchObject({
        url: jobs('?function=product-management&location=us-remote'),
        titles: ['Product Manager - SAAS', 'Senior Product Manager'],
      });
      expect(await isSameDocument()).toBe(true);

      await tab().reload();
      await untilScreen('Featured Jobs');
      await untilCount('2 jobs found');
      expect(await state()).toMatchObject({
        function: 'product-management',
        location: 'us-remote',
        titles: ['Product Manager - SAAS', 'Senior Product Manager'],
      });

      await tab().select('select[name="location"]', 'austin-tx');
      await untilCount('0 jobs found');
      await tab().click('button', { text: 'Clear Filters' });
      await untilCount('6 jobs found');
      expect(await state()).toMatchObject({ url: jobs(), function: '', location: '', titles: allJobTitles });
      expect(await unexpectedErrors()).toEqual([]);
    });
  });
});

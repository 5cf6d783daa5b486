import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { integrityOf } from '@nativegtm/build/integrity';
import { deployables } from '@nativegtm/server/deployables';
import { FIELD_DATA_CHUNK, SAMPLE_RATE_META, type Beacon, type Vital } from '@nativegtm/contract/fieldData';
import { pages as registry } from '@nativegtm/contract/pages';
import { startBeaconProxy } from '../support/beaconProxy';
import { chromiumPerFile } from '../support/chromium';
import { eventually } from '../support/eventually';
import { fieldDataDir, ports, untilHydrated } from '../support/site';
import { readRecords, type FieldRecord } from '@nativegtm/server/fieldData/recordStore';

// The shell's field data in Chromium: what the collector sends for real page views of the composed site, read on the
// way (a proxy in front of the test site's shell, support/beaconProxy.ts), and what the server kept of it.

jest.setTimeout(90_000);
const browser = chromiumPerFile();
let proxy: Awaited<ReturnType<typeof startBeaconProxy>>;

beforeAll(async () => {
  proxy = await startBeaconProxy(ports.shell!);
});
afterAll(() => proxy?.stop());
beforeEach(() => {
  proxy.beacons.length = 0;
});

const heading = (remote: string) => registry.find((page) => page.remote === remote)!.heading;
const COLLECTOR_CHUNK = new RegExp(`/${FIELD_DATA_CHUNK}\\.[0-9a-f]{10}\\.js$`);

/** The build of a remote's page in a document the server composed (body > [data-remote][data-build]). */
async function serverBuild(path: string, remote: string): Promise<string> {
  const html = await (await fetch(proxy.url(path))).text();
  const build = new RegExp(`data-remote="${remote}" data-build="([^"]+)"`).exec(html)?.[1];
  if (!build) throw new Error(`${path} came without ${remote}'s HTML`);
  return build;
}

/** Opens `path` and waits until the page is hydrated and the collector has loaded. */
async function openMeasured(path: string, remote: string): Promise<Page> {
  const page = await browser().newPage();
  const collector = page.waitForResponse((response) => COLLECTOR_CHUNK.test(response.url()));
  await page.goto(proxy.url(path));
  await page.getByRole('heading', { level: 1, name: heading(remote) }).waitFor();
  await untilHydrated(page);
  await collector;
  return page;
}

/** Moves the page's content down by a tall block at the top of its main: a layout shift no input explains. */
async function shiftLayout(page: Page): Promise<void> {
  // Shifts within 500 ms of an input do not count: the test's last click or key was just before.
  await page.waitForTimeout(600);
  await page.evaluate(() => {
    const block = document.createElement('div');
    block.style.height = '900px';
    document.querySelector('main')!.prepend(block);
  });
}

/** A click on the page's h1 whose handler keeps the main thread busy: a poor interaction, by the remote's element. */
async function slowClick(page: Page, ms: number): Promise<void> {
  await page.evaluate((busy) => {
    document.querySelector('h1')!.addEventListener('click', () => {
      const end = performance.now() + busy;
      while (performance.now() < end);
    });
  }, ms);
  await page.click('h1');
}

const views = (seq: number) => proxy.beacons.filter((beacon) => beacon.view.seq === seq);
const vitalsOf = (beacons: Beacon[]) => beacons.flatMap((beacon) => beacon.vitals);
const named = (vitals: Vital[], name: string) => vitals.find((vital) => vital.name === name);

describe('field data in Chromium', () => {
  it('measures the document, then an in-app navigation as a view of its own, and sends the last as the tab closes', async () => {
    const started = Date.now();
    const jobsBuild = await serverBuild('/featured-jobs', 'jobs');
    const employersBuild = await serverBuild('/employers', 'employers');
    const page = await openMeasured('/featured-jobs', 'jobs');

    // The collector's chunk costs the first page nothing: requested after its largest paint and its load.
    const timing = await page.evaluate(async () => {
      const lcp = await new Promise<PerformanceEntry>((resolve) =>
        new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!)).observe({
          type: 'largest-contentful-paint',
          buffered: true,
        }),
      );
      const chunk = performance.getEntriesByType('resource').find((entry) => /\/field-data\./.test(entry.name))!;
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { lcp: lcp.startTime, load: navigation.loadEventEnd, chunk: chunk.startTime };
    });
    expect(timing.chunk).toBeGreaterThan(timing.lcp);
    expect(timing.chunk).toBeGreaterThanOrEqual(timing.load);

    // The document's view: a poor CLS, a poor click and a key press, then a link to another page.
    await shiftLayout(page);
    await slowClick(page, 600);
    await page.keyboard.press('Tab');
    await page.locator('header a[href="/employers"]').first().click();
    await page.getByRole('heading', { level: 1, name: heading('employers') }).waitFor();

    // The view the navigation ended goes out once the browser is idle.
    await eventually(
      async () => views(0).length,
      (count) => count > 0,
      { timeoutMs: 10_000, what: "the first view's beacons" },
    );
    const first = views(0);
    expect(first[0]).toMatchObject({
      v: 1,
      first: true,
      view: { seq: 0, route: '/featured-jobs', remote: 'jobs', build: jobsBuild, nav: 'document', device: 'desktop' },
    });
    const documentVitals = vitalsOf(first);
    expect(documentVitals.map((vital) => vital.name).sort()).toEqual(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']);
    expect(named(documentVitals, 'INP')).toEqual({
      name: 'INP',
      value: expect.any(Number),
      target: '#featured-jobs-title',
      targetRemote: 'jobs',
    });
    expect(named(documentVitals, 'INP')!.value).toBeGreaterThan(500);
    expect(named(documentVitals, 'CLS')).toEqual({
      name: 'CLS',
      value: expect.any(Number),
      target: expect.any(String),
      targetRemote: 'jobs',
    });
    expect(named(documentVitals, 'CLS')!.value).toBeGreaterThan(0.25);

    // The second view: its own poor CLS and INP, by the employers page's elements (rendered in the shell's slot).
    await untilHydrated(page);
    const employersHeading = await page.evaluate(() => `#${document.querySelector('h1')!.id}`);
    await shiftLayout(page);
    await slowClick(page, 700);
    await page.waitForTimeout(300);
    expect(views(1)).toEqual([]);
    await page.close({ runBeforeUnload: true });

    const second = await eventually(
      async () => views(1),
      (beacons) => beacons.length > 0,
      { timeoutMs: 5000, what: "the second view's beacons (sent as the tab closed)" },
    );
    expect(second[0]).toMatchObject({
      first: true,
      view: {
        seq: 1,
        route: '/employers',
        remote: 'employers',
        build: employersBuild,
        nav: 'navigation',
        device: 'desktop',
      },
    });
    const navigationVitals = vitalsOf(second);
    // No LCP, FCP or TTFB for an in-app navigation: this Chromium has no Soft Navigations API.
    expect(navigationVitals.map((vital) => vital.name).sort()).toEqual(['CLS', 'INP']);
    expect(named(navigationVitals, 'INP')).toMatchObject({
      targetRemote: 'employers',
      target: employersHeading,
    });
    expect(named(navigationVitals, 'INP')!.value).toBeGreaterThan(600);
    expect(named(navigationVitals, 'CLS')).toMatchObject({ targetRemote: 'employers' });
    expect(named(navigationVitals, 'CLS')!.value).toBeGreaterThan(0.25);
    expect(proxy.beacons.every((beacon) => beacon.errors.length === 0)).toBe(true);

    // The server kept both views, labelled with the builds it serves live (the test site has no release store). Other
    // files that jest runs meanwhile visit the same site: the views looked for are these two, among theirs.
    const wanted = [
      { route: '/featured-jobs', remote: 'jobs', release: jobsBuild, nav: 'document' },
      { route: '/employers', remote: 'employers', release: employersBuild, nav: 'navigation' },
    ];
    const kept = await eventually(
      async () => {
        const records: FieldRecord[] = [];
        for await (const record of readRecords(fieldDataDir, { since: started })) records.push(record);
        return records.filter((record) => record.type === 'view');
      },
      (records) =>
        wanted.every((view) =>
          records.some((record) =>
            Object.entries(view).every(([key, value]) => record[key as keyof FieldRecord] === value),
          ),
        ),
      { timeoutMs: 5000, what: 'the views the server kept' },
    );
    expect(kept).toEqual(expect.arrayContaining(wanted.map((view) => expect.objectContaining(view))));
  });

  it("counts a remote's errors after hydration, and one from before the collector loaded, as that remote's", async () => {
    const jobsOrigin = `http://localhost:${ports['jobs-mfe']}`;
    const page = await browser().newPage();
    // A faulty deploy of the jobs page: its chunk throws once loaded, and can be made to throw and reject later. A
    // deploy of its team's, so its build lists the chunk as it is: the integrity its entry and its list name are the
    // faulty chunk's (anything else, the browser would refuse as planted, and never run).
    const dist = join(deployables.find((deployable) => deployable.remote === 'jobs')!.dir, 'dist');
    const faulty = (original: string) =>
      original +
      '\n;setTimeout(function jobsStartsBroken() { throw new Error("jobs: broken at start"); });' +
      '\n;window.__breakJobs = function () {' +
      ' setTimeout(function jobsBreaks() { throw new Error("jobs: broken later"); });' +
      ' Promise.reject(new Error("jobs: rejected later")); };';
    const listed = JSON.parse(readFileSync(join(dist, 'integrity.json'), 'utf8')) as Record<string, string>;
    const chunk = Object.keys(listed).find((file) => /^__federation_expose_Page\.[0-9a-f]+\.js$/.test(file))!;
    const built = listed[chunk]!;
    const deployed = integrityOf(faulty(readFileSync(join(dist, chunk), 'utf8')));
    // The entry names the chunk's integrity, and the list the entry's: both change with it.
    const entry = readFileSync(join(dist, 'remoteEntry.js'), 'utf8');
    const [builtEntry, deployedEntry] = [listed['remoteEntry.js']!, integrityOf(entry.replaceAll(built, deployed))];
    const deployList = (list: string) => list.replaceAll(built, deployed).replaceAll(builtEntry, deployedEntry);
    // And the site's server vouches for that list in /remotes.json, as it does for a deploy it reads.
    const list = readFileSync(join(dist, 'integrity.json'), 'utf8');
    const [builtList, deployedList] = [integrityOf(list), integrityOf(deployList(list))];
    await page.route(/\/remotes\.json$/, async (route) => {
      const response = await route.fetch();
      return route.fulfill({ response, body: (await response.text()).replaceAll(builtList, deployedList) });
    });
    await page.route(new RegExp(`^${jobsOrigin}/.*\\.(js|json)(\\?.*)?$`), async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      const url = route.request().url();
      if (url.includes(`/${chunk}`)) return route.fulfill({ response, body: faulty(body) });
      if (url.includes('/remoteEntry.js')) return route.fulfill({ response, body: body.replaceAll(built, deployed) });
      if (url.includes('/integrity.json')) return route.fulfill({ response, body: deployList(body) });
      return route.fulfill({ response, body });
    });
    await page.addInitScript(() => {
      const times: number[] = [];
      Object.defineProperty(window, '__errorTimes', { value: times });
      addEventListener('error', () => times.push(performance.now()));
    });
    const collector = page.waitForResponse((response) => COLLECTOR_CHUNK.test(response.url()));
    await page.goto(proxy.url('/featured-jobs'));
    await untilHydrated(page);
    await collector;
    // Its timing entry is added once its body is in, after the response Playwright waited for: on a busy machine,
    // later than the next line.
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((entry) => /\/field-data\./.test(entry.name)),
    );
    // The first error came before the collector was even requested: kept for it.
    const [firstError, collectorRequested] = await page.evaluate(() => [
      (window as unknown as { __errorTimes: number[] }).__errorTimes[0],
      performance.getEntriesByType('resource').find((entry) => /\/field-data\./.test(entry.name))?.startTime,
    ]);
    expect(firstError).toBeLessThan(collectorRequested!);
    const build = await page.evaluate(() => document.querySelector<HTMLElement>('body > [data-remote]')!.dataset.build);
    await page.evaluate(() => (window as unknown as { __breakJobs: () => void }).__breakJobs());
    await page.waitForTimeout(200);
    // Hidden (another tab, the phone locked): as web-vitals' own tests hide a page.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    const [beacon] = await eventually(
      async () => proxy.beacons,
      (beacons) => beacons.length > 0,
      { timeoutMs: 5000, what: 'the beacons' },
    );
    expect(beacon).toMatchObject({ first: true, view: { seq: 0, route: '/featured-jobs', remote: 'jobs', build } });
    expect(beacon?.errors).toEqual([
      { source: 'error', remote: 'jobs', build },
      { source: 'error', remote: 'jobs', build },
      { source: 'rejection', remote: 'jobs', build },
    ]);
    await page.close();
  });

  it('sends nothing, and loads no collector, at a sample rate of 0', async () => {
    const page = await browser().newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.route(proxy.url('/featured-jobs'), async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace('<head>', `<head><meta name="${SAMPLE_RATE_META}" content="0">`);
      await route.fulfill({ response, body });
    });
    await page.goto(proxy.url('/featured-jobs'));
    await untilHydrated(page);
    // Well past the idle time in which a measured document loads its collector.
    await page.waitForTimeout(4000);
    await slowClick(page, 100);
    await page.close({ runBeforeUnload: true });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(requested.filter((url) => COLLECTOR_CHUNK.test(url))).toEqual([]);
    expect(proxy.beacons).toEqual([]);
  });
});

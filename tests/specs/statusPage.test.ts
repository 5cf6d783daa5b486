import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { fragmentPaths } from '@nativegtm/contract/fragments';
import { deployables } from '@nativegtm/server/deployables';
import { createRecordWriter, type FieldRecord } from '@nativegtm/server/fieldData/recordStore';
import { RELEASE_MANIFEST } from '@nativegtm/store/releaseInStore';
import { storeLayout } from '@nativegtm/store/layout';
import { createMetrics } from '@nativegtm/server/observability/metrics';
import { startMetricsServer } from '@nativegtm/server/observability/metricsServer';
import { createStatusPage } from '@nativegtm/server/observability/statusPage';
import { launchChromium } from '../support/chromium';

// The field-data status page on the metrics port, as an operator sees it in Chromium at 1280 px: a temporary record
// store with an hour of known records and a temporary release store, the page's figures read off the screen, and a
// screenshot to look at (screenshots/, beside `npm run screenshots`' own).

jest.setTimeout(60_000);

const MINUTE = 60_000;
const CANDIDATES_LIVE = '3a7c9e1b5d2f4a6c';
const CANDIDATES_PREVIOUS = '1f0e9d8c7b6a5f4e';
const EMPLOYERS_LIVE = 'b4d2c9a1e7f30a55';
const JOBS_LIVE = '5e6f7a8b9c0d1e2f';
const screenshot = resolve(__dirname, '../../screenshots/status-page-1280.png');

const folder = mkdtempSync(join(tmpdir(), 'nativegtm-status-page-'));
const fieldDataDir = join(folder, 'field-data');
const releasesDir = join(folder, 'releases');
let browser: Browser | undefined;
let stop: (() => Promise<void>) | undefined;
let statusUrl = '';

/** The build comingSoon's dist/ serves (no release of it in this store): what its records are labelled with. */
const comingSoonBuild = () =>
  JSON.parse(
    readFileSync(
      join(deployables.find((d) => d.name === 'coming-soon-mfe')!.dir, 'dist', fragmentPaths.manifest),
      'utf8',
    ),
  ).buildId as string;

/** A remote's releases in the store, promoted in order; the last is live. */
function promote(remote: string, ids: string[]) {
  const layout = storeLayout(releasesDir, remote);
  for (const id of ids) {
    mkdirSync(layout.release(id), { recursive: true });
    writeFileSync(join(layout.release(id), RELEASE_MANIFEST), '{}');
  }
  const history = ids.map((id, index) => ({
    at: '2026-11-26T08:00:00Z',
    action: 'promote',
    id,
    from: ids[index - 1] ?? null,
  }));
  writeFileSync(layout.history, history.map((change) => `${JSON.stringify(change)}\n`).join(''));
  symlinkSync(ids[ids.length - 1]!, layout.live);
}

/**
 * `count` views of a release spread over minutes `from` to `to` ago, each with one value of each vital taken in turn
 * from the lists: with `count` a multiple of every list's length, p75 (nearest rank) is the list's value at ceil(0.75 ×
 * its length).
 */
function views(
  now: number,
  labels: { route: string; remote: string; release: string },
  {
    count,
    from,
    to,
    vitals,
    errors = 0,
  }: { count: number; from: number; to: number; vitals: Record<string, number[]>; errors?: number },
): FieldRecord[] {
  const records: FieldRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    const t = now - (from + ((to - from) * index) / count) * MINUTE;
    const base = { t, ...labels, device: 'desktop', nav: 'document', signed: false };
    records.push({ ...base, type: 'view' });
    for (const [name, values] of Object.entries(vitals)) {
      const value = values[index % values.length]!;
      const poor = (name === 'LCP' && value > 4000) || (name === 'INP' && value > 500);
      records.push({
        ...base,
        type: 'vital',
        name: name as 'LCP',
        value,
        ...(poor ? { target: 'main > img.hero', targetRemote: labels.remote } : {}),
      });
    }
    if (index < errors) records.push({ ...base, type: 'error', source: 'error', page: labels.remote });
  }
  return records;
}

beforeAll(async () => {
  promote('candidates', [CANDIDATES_PREVIOUS, CANDIDATES_LIVE]);
  promote('employers', [EMPLOYERS_LIVE]);
  promote('jobs', [JOBS_LIVE]);
  const now = Date.now();
  const candidates = { route: '/', remote: 'candidates' };
  const records = [
    // Live for the last half hour: LCP 1.2 1.8 2.4 3.1 s, p75 2.4 s; INP p75 260 ms; CLS p75 0.12. 3 errors in 48 views.
    ...views(
      now,
      { ...candidates, release: CANDIDATES_LIVE },
      {
        count: 48,
        from: 1,
        to: 29,
        vitals: { LCP: [1200, 1800, 2400, 3100], INP: [80, 120, 260, 600], CLS: [0.01, 0.05, 0.12, 0.3] },
        errors: 3,
      },
    ),
    // Previous, the half hour before: LCP p75 1.9 s; INP p75 150 ms; CLS p75 0.04. 1 error in 48 views.
    ...views(
      now,
      { ...candidates, release: CANDIDATES_PREVIOUS },
      {
        count: 48,
        from: 31,
        to: 59,
        vitals: { LCP: [900, 1400, 1900, 2600], INP: [60, 90, 150, 240], CLS: [0, 0.02, 0.04, 0.06] },
        errors: 1,
      },
    ),
    // employers: LCP 3.0 3.8 4.6 5.2 s, p75 4.6 s, poor; INP p75 180 ms; CLS p75 0.08.
    ...views(
      now,
      { route: '/employers', remote: 'employers', release: EMPLOYERS_LIVE },
      {
        count: 24,
        from: 1,
        to: 59,
        vitals: { LCP: [3000, 3800, 4600, 5200], INP: [120, 150, 180, 210], CLS: [0.02, 0.05, 0.08, 0.2] },
      },
    ),
    // comingSoon from its dist/ build: LCP p75 1.1 s.
    ...views(
      now,
      { route: '/coming-soon', remote: 'comingSoon', release: comingSoonBuild() },
      {
        count: 8,
        from: 2,
        to: 40,
        vitals: { LCP: [800, 950, 1100, 1300] },
      },
    ),
    // The shell threw twice.
    ...[5, 25].map((ago) => ({
      ...views(now, { ...candidates, release: 'live' }, { count: 1, from: ago, to: ago, vitals: {} })[0]!,
      type: 'error' as const,
      remote: 'shell',
      source: 'rejection',
      page: 'candidates',
    })),
  ];
  let received = 0;
  const writer = createRecordWriter({ dir: fieldDataDir, now: () => received });
  for (const record of records.sort((a, b) => a.t - b.t)) {
    received = record.t;
    writer.write([record]);
  }
  await writer.flush();

  const server = await startMetricsServer(createMetrics(), {
    port: 0,
    statusPage: createStatusPage({ fieldDataDir, releasesDir }),
  });
  statusUrl = server.url.replace(/\/metrics$/, '/status');
  stop = server.stop;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stop?.();
  rmSync(folder, { recursive: true, force: true });
});

it('shows each remote with its live and previous release, their p75 and error rates, charted, at 1280 px', async () => {
  const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (message) => problems.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => problems.push(error.message));
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(statusUrl);

  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
    'NativeGTM field data: the last hour',
  );
  const card = (remote: string) => page.locator('section.card', { has: page.locator(`h2#remote-${remote}`) });
  const cells = (remote: string, row: string) =>
    card(remote)
      .locator('tbody tr', { has: page.locator(`th:text-is("${row}")`) })
      .locator('td')
      .allInnerTexts();
  const tidy = (texts: string[]) => texts.map((text) => text.replace(/\s+/g, ' ').trim());

  await expect(card('candidates').locator('thead').innerText()).resolves.toMatch(/LIVE 3a7c9e1b\s+PREVIOUS 1f0e9d8c/);
  expect(tidy(await cells('candidates', 'Views'))).toEqual(['48', '48']);
  expect(tidy(await cells('candidates', 'LCP p75'))).toEqual(['2.4 s good', '1.9 s good']);
  expect(tidy(await cells('candidates', 'INP p75'))).toEqual(['260 ms needs improvement', '150 ms good']);
  expect(tidy(await cells('candidates', 'CLS p75'))).toEqual(['0.12 needs improvement', '0.04 good']);
  expect(tidy(await cells('candidates', 'Errors per 1,000 views'))).toEqual(['62.5 3 errors', '20.8 1 error']);
  expect(tidy(await cells('employers', 'LCP p75'))).toEqual(['4.6 s poor']);
  await expect(card('employers').innerText()).resolves.toContain('no previous release');
  await expect(card('jobs').innerText()).resolves.toContain('No views of the live release in the last hour.');
  await expect(card('jobs').innerText()).resolves.toContain(JOBS_LIVE.slice(0, 8));
  await expect(card('comingSoon').innerText()).resolves.toContain(
    `the build in dist/, ${comingSoonBuild().slice(0, 8)}`,
  );
  expect(tidy(await cells('comingSoon', 'LCP p75'))).toEqual(['1.1 s good']);
  await expect(page.locator('.summary').innerText()).resolves.toMatch(
    /128 views\s+Shell errors: 15\.6 per 1,000 views \(2\)/,
  );

  // LCP, INP, CLS and errors for each remote with views; every one drawn, none empty.
  await expect(page.locator('svg[role="img"]').count()).resolves.toBe(12);
  await expect(card('candidates').locator('svg[role="img"] path').count()).resolves.toBe(8);
  // One request (no script, style sheet, font or image to fetch), no violation of its policy, no error; and it fits.
  expect(requests).toEqual([statusUrl]);
  expect(problems).toEqual([]);
  await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(1280);

  mkdirSync(resolve(screenshot, '..'), { recursive: true });
  await page.screenshot({ path: screenshot, fullPage: true });
});

import type { Page } from 'playwright-core';
import { chromiumPerFile } from '../support/chromium';
import { sidewaysScrolling } from '../support/layout';
import { collectConsoleErrors, shellUrl, untilHydrated } from '../support/site';
import { allJobTitles } from '../support/jobs';

const browser = chromiumPerFile();
let page: Page;

beforeEach(async () => {
  page = await browser().newPage();
});
afterEach(async () => {
  await page.close();
});

const jobsUrl = (query = '') => shellUrl(`/featured-jobs${query}`);
const select = (label: string) => page.getByRole('combobox', { name: label });
const shownOption = (label: string) =>
  select(label).evaluate((element) => (element as HTMLSelectElement).selectedOptions[0]?.textContent);
const cardTitles = () => page.locator('main article h2').allTextContents();

/** Waits for the count line (the page's live region, not the shell's loading status) to read `text`. */
async function waitForCount(text: string): Promise<void> {
  await page
    .locator('main')
    .getByRole('status')
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();
}

/** Marks the document, so a test can tell client-side navigation from a page load. */
async function markDocument(): Promise<() => Promise<boolean>> {
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
  return () => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);
}

async function openJobs(query = ''): Promise<void> {
  await page.goto(jobsUrl(query));
  await page.getByRole('heading', { level: 1, name: 'Featured Jobs' }).waitFor();
  await untilHydrated(page);
}

describe('Featured Jobs in the composed site', () => {
  it('filters by function and location in the page, writing the choice into the URL', async () => {
    await openJobs();
    await waitForCount('6 jobs found');
    expect(await cardTitles()).toEqual(allJobTitles);
    const sameDocument = await markDocument();

    await select('Job Function').selectOption({ label: 'Product Management' });
    await page.waitForURL(jobsUrl('?function=product-management'));
    await waitForCount('3 jobs found');
    expect(await cardTitles()).toEqual([
      'Product Manager - SAAS',
      'Senior Product Manager',
      'Product Manager - Consumer',
    ]);

    await select('Location').selectOption({ label: 'US (Remote)' });
    await page.waitForURL(jobsUrl('?function=product-management&location=us-remote'));
    await waitForCount('2 jobs found');
    expect(await cardTitles()).toEqual(['Product Manager - SAAS', 'Senior Product Manager']);

    expect(await sameDocument()).toBe(true);
  });

  it('reproduces a shared link, and a reload keeps the state', async () => {
    await openJobs('?function=product-marketing&location=austin-tx');
    await waitForCount('1 job found');
    expect(await cardTitles()).toEqual(['Product Marketing Manager']);

    await page.reload();
    await waitForCount('1 job found');
    expect(await shownOption('Job Function')).toBe('Product Marketing');
    expect(await shownOption('Location')).toBe('Austin, TX');
    expect(await cardTitles()).toEqual(['Product Marketing Manager']);
  });

  it('follows Back and Forward through the choices', async () => {
    await openJobs();
    await select('Job Function').selectOption({ label: 'Product Management' });
    await page.waitForURL(jobsUrl('?function=product-management'));
    await select('Location').selectOption({ label: 'San Francisco, CA' });
    await waitForCount('1 job found');

    await page.goBack();
    await page.waitForURL(jobsUrl('?function=product-management'));
    await waitForCount('3 jobs found');
    expect(await shownOption('Location')).toBe('All Locations');

    await page.goBack();
    await page.waitForURL(jobsUrl());
    await waitForCount('6 jobs found');
    expect(await shownOption('Job Function')).toBe('All Job Functions');

    await page.goForward();
    await page.goForward();
    await page.waitForURL(jobsUrl('?function=product-management&location=san-francisco-ca'));
    await waitForCount('1 job found');
    expect(await cardTitles()).toEqual(['Product Manager - Consumer']);
  });

  it.each([
    '?function=<script>alert(1)</script>',
    '?location=%E0%A4%A',
    '?function=a&function=b',
    '?function=product-marketing&function=product-marketing&location=%3Cimg%20src%3Dx%3E',
  ])('shows all six jobs for the junk query %s, without errors and without rendering it', async (query) => {
    const errors = collectConsoleErrors(page);
    const pageErrors: Error[] = [];
    page.on('pageerror', (error) => pageErrors.push(error));

    await openJobs(query);
    await waitForCount('6 jobs found');
    expect(await cardTitles()).toEqual(allJobTitles);
    expect(await shownOption('Job Function')).toBe('All Job Functions');
    expect(await shownOption('Location')).toBe('All Locations');
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/script|alert|img|%E0/i);
    expect(await page.locator('main img').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('shows the empty state, and Clear Filters resets function and location but keeps the sort', async () => {
    await openJobs('?function=account-executive&location=austin-tx');
    await waitForCount('0 jobs found');
    await page.getByText('No jobs found matching your criteria.').waitFor();
    expect(await cardTitles()).toEqual([]);

    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.waitForURL(jobsUrl());
    await waitForCount('6 jobs found');
    expect(await cardTitles()).toEqual(allJobTitles);
    expect(await shownOption('Job Function')).toBe('All Job Functions');
    expect(await shownOption('Location')).toBe('All Locations');
    expect(await shownOption('Sort by')).toBe('Date Posted');
    expect(await select('Job Function').evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it('keeps the scroll position when a filter changes', async () => {
    await page.setViewportSize({ width: 375, height: 700 });
    await openJobs();
    await page.evaluate(() => window.scrollTo(0, 300));
    await select('Location').selectOption({ label: 'US (Remote)' });
    await page.waitForURL(jobsUrl('?location=us-remote'));
    await waitForCount('2 jobs found');
    await page.waitForTimeout(100);
    expect(await page.evaluate(() => window.scrollY)).toBe(300);
  });

  it('Apply Now opens Coming Soon inside the app', async () => {
    await openJobs('?location=new-york-ny');
    await waitForCount('1 job found');
    const sameDocument = await markDocument();

    const apply = page.getByRole('link', { name: 'Apply Now for Enterprise Account Executive' });
    // Sighted visitors read "Apply Now"; the title is in the name only (in a 1 px clipped span).
    const visibleText = await apply.evaluate((link) =>
      [...link.childNodes]
        .filter((node) => !(node instanceof Element) || node.getBoundingClientRect().width > 1)
        .map((node) => node.textContent)
        .join(''),
    );
    expect(visibleText).toBe('Apply Now');
    await apply.click();
    await page.getByRole('heading', { level: 1, name: 'NativeGTM is Coming Soon' }).waitFor();
    await page.waitForURL(shellUrl('/coming-soon'));
    expect(await sameDocument()).toBe(true);
  });

  it('lays the filters out in a row on desktop and stacked on phones, never scrolling sideways (320-1920 px)', async () => {
    const tops = async () =>
      Promise.all(['Job Function', 'Location', 'Sort by'].map(async (label) => (await select(label).boundingBox())?.y));

    await openJobs();
    expect(await sidewaysScrolling(page)).toEqual([]);

    await page.setViewportSize({ width: 1280, height: 900 });
    const [first, second, third] = await tops();
    expect(second).toBe(first);
    expect(third).toBe(first);

    await page.setViewportSize({ width: 375, height: 900 });
    const [top1 = 0, top2 = 0, top3 = 0] = await tops();
    expect(top2).toBeGreaterThan(top1);
    expect(top3).toBeGreaterThan(top2);
  });
});

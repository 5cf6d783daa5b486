import type { Locator, Page } from 'playwright-core';
import { pages, shellUrl, untilHydrated } from './site';

/** The h1 that proves a route rendered, by path. */
function headingOf(path: string): string {
  const route = pages.find((candidate) => candidate.path === path);
  if (!route) throw new Error(`No known page at ${path}`);
  return route.heading;
}

export async function openPage(page: Page, path: string): Promise<void> {
  await page.goto(shellUrl(path));
  await page.getByRole('heading', { level: 1, name: headingOf(path) }).waitFor();
  await untilHydrated(page);
}

/** Every link and button in the document, in order, as [text, href] (href is null for buttons). */
export function controlsOf(page: Page): Promise<[string, string | null][]> {
  return page.$$eval('a, button', (elements) =>
    elements.map(
      (element) => [element.textContent?.trim() ?? '', element.getAttribute('href')] as [string, string | null],
    ),
  );
}

/** Marks the current document; `isSameDocument` is true only while no full page load has happened since. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
}

export function isSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);
}

/**
 * Clicks `control` on `from` and checks the visitor arrives at `to` (its h1 is shown) without a document load;
 * then returns to `from` through history, as the back button would.
 */
export async function clickAndExpectArrival(page: Page, control: Locator, from: string, to: string): Promise<void> {
  await control.click();
  await page.waitForURL(shellUrl(to));
  await page.getByRole('heading', { level: 1, name: headingOf(to) }).waitFor();
  if (!(await isSameDocument(page))) throw new Error(`Going from ${from} to ${to} loaded a new document`);
  if (to !== from) {
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: headingOf(from) }).waitFor();
  }
}

/** How far the page scrolls sideways (0 when it fits the viewport). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

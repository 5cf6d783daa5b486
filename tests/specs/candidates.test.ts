import type { Page } from 'playwright-core';
import { chromiumPerFile } from '../support/chromium';
import {
  clickAndExpectArrival,
  controlsOf,
  horizontalOverflow,
  isSameDocument,
  markDocument,
  openPage,
} from '../support/landing';
import { shellUrl } from '../support/site';
import { eventually, expectEventually } from '../support/eventually';

const browser = chromiumPerFile();
let page: Page;

afterEach(async () => {
  await page?.close();
});

async function newPage(width: number) {
  page = await browser().newPage({ viewport: { width, height: 900 } });
  return page;
}

const comingSoon = (label: string): [string, string] => [label, '/coming-soon'];

/** What the spec says every control on / does, in page order, after the shell's skip link. */
const expectedControls: [string, string | null][] = [
  ['Skip to main content', '#main-content'],
  ['NativeGTM', '/'],
  ['Menu', null],
  ['Candidates', '/'],
  ['Employers', '/employers'],
  comingSoon('Featured Jobs'),
  comingSoon('Candidate Sign In'),
  comingSoon('Apply Now'),
  ...Array.from({ length: 5 }, () => comingSoon('Apply Now')),
  comingSoon('Search Candidates'),
  ...Array.from({ length: 5 }, () => comingSoon('Apply Now')),
];

describe('the Candidates landing page (/)', () => {
  it('has exactly the controls the spec asks for, each with its target', async () => {
    await newPage(1280);
    await openPage(page, '/');
    expect(await controlsOf(page)).toEqual(expectedControls);
  });

  // Jest's default 5 s is too short for a dozen round trips through the router.
  it('takes every link to its target on the client, in one document', async () => {
    await newPage(1280);
    await openPage(page, '/');
    await markDocument(page);
    // The skip link moves focus within the page; accessibility.test.ts covers it.
    const links = page.getByRole('link').filter({ hasNotText: 'Skip to main content' });
    const targets = (await controlsOf(page)).filter(([, href]) => href !== null && !href.startsWith('#'));
    expect(await links.count()).toBe(targets.length);
    for (const [index, [, href]] of targets.entries()) {
      await clickAndExpectArrival(page, links.nth(index), '/', href!);
    }
    expect(await isSameDocument(page)).toBe(true);
  }, 30_000);

  it('highlights a role card while it is hovered and while its button has keyboard focus', async () => {
    await newPage(1280);
    await openPage(page, '/');
    const cards = page.getByRole('region', { name: 'Find your next AI-native GTM role' }).getByRole('article');
    const look = (index: number) =>
      cards.nth(index).evaluate((card) => {
        const style = getComputedStyle(card);
        return `${style.borderColor} ${style.boxShadow}`;
      });
    const resting = await look(0);
    expect(await look(1)).toBe(resting);

    await cards.nth(0).hover();
    await eventually(
      () => look(0),
      (value) => value !== resting,
    );
    await page.mouse.move(0, 0);
    await eventually(
      () => look(0),
      (value) => value === resting,
    );

    await cards.nth(1).getByRole('link', { name: 'Apply Now' }).focus();
    await eventually(
      () => look(1),
      (value) => value !== resting,
    );
    expect(await look(0)).toBe(resting);
  });

  it('keeps the header at the top while the page scrolls', async () => {
    await newPage(1280);
    await openPage(page, '/');
    await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    const box = await page.getByRole('banner').boundingBox();
    expect(box?.y).toBe(0);
    await page.getByRole('link', { name: 'Candidate Sign In' }).waitFor({ state: 'visible' });
  });

  it.each([320, 375, 768, 1280, 1920])('never scrolls sideways at %i px', async (width) => {
    await newPage(width);
    await openPage(page, '/');
    expect(await horizontalOverflow(page)).toBe(0);
  });

  it('shows the featured jobs table whole on a 375 px phone, every action within reach', async () => {
    await newPage(375);
    await openPage(page, '/');
    const table = page.getByRole('region', { name: 'Featured Jobs' }).getByRole('table');
    const tableBox = await table.boundingBox();
    expect(tableBox!.x).toBeGreaterThanOrEqual(0);
    expect(tableBox!.x + tableBox!.width).toBeLessThanOrEqual(375);
    const actions = table.getByRole('link', { name: 'Apply Now' });
    expect(await actions.count()).toBe(5);
    for (const action of await actions.all()) {
      const box = await action.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    }
  });

  describe('on a phone (375 px)', () => {
    it('hides the links behind the menu button, which opens and closes on Escape', async () => {
      await newPage(375);
      await openPage(page, '/');
      const toggle = page.getByRole('button', { name: 'Menu' });
      const employers = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Employers' });
      await employers.waitFor({ state: 'hidden' });
      await expectEventually(() => toggle.getAttribute('aria-expanded'), 'false');
      const controlled = await toggle.getAttribute('aria-controls');
      expect(await page.locator(`[id="${controlled}"]`).getAttribute('aria-label')).toBe('Main');

      await toggle.click();
      await expectEventually(() => toggle.getAttribute('aria-expanded'), 'true');
      await employers.waitFor({ state: 'visible' });
      await page.getByRole('link', { name: 'Candidate Sign In' }).waitFor({ state: 'visible' });

      await page.keyboard.press('Escape');
      await expectEventually(() => toggle.getAttribute('aria-expanded'), 'false');
      await employers.waitFor({ state: 'hidden' });
      expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);
    });

    it('closes the menu when a link in it is followed, and navigates on the client', async () => {
      await newPage(375);
      await openPage(page, '/');
      await markDocument(page);
      const toggle = page.getByRole('button', { name: 'Menu' });
      const nav = page.getByRole('navigation', { name: 'Main' });

      // The link to the page already shown changes no route: only the menu's own handling can close it.
      await toggle.click();
      await nav.getByRole('link', { name: 'Candidates' }).click();
      await expectEventually(() => toggle.getAttribute('aria-expanded'), 'false');
      await nav.getByRole('link', { name: 'Employers' }).waitFor({ state: 'hidden' });

      await toggle.click();
      await clickAndExpectArrival(page, nav.getByRole('link', { name: 'Employers' }), '/', '/employers');
      expect(await isSameDocument(page)).toBe(true);
      expect(page.url()).toBe(shellUrl('/'));
    });
  });
});

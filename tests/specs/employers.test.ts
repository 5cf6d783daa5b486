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

const browser = chromiumPerFile();
let page: Page;

afterEach(async () => {
  await page?.close();
});

async function newPage(width: number) {
  page = await browser().newPage({ viewport: { width, height: 900 } });
  return page;
}

const buttonLabels = [
  'Employer Sign In',
  'Search AI Native Candidates',
  ...Array.from({ length: 4 }, () => 'Search'),
  ...Array.from({ length: 6 }, () => 'Hire Now'),
];

describe('the Employers landing page (/employers)', () => {
  it('has the landing header links and, besides them, only buttons that lead to Coming Soon', async () => {
    await newPage(1280);
    await openPage(page, '/employers');
    const controls = await controlsOf(page);
    expect(controls.slice(0, 6)).toEqual([
      ['Skip to main content', '#main-content'],
      ['NativeGTM', '/'],
      ['Menu', null],
      ['Candidates', '/'],
      ['Employers', '/employers'],
      ['Featured Jobs', '/coming-soon'],
    ]);
    expect(controls.slice(6)).toEqual(buttonLabels.map((label) => [label, '/coming-soon']));
  });

  // Jest's default 5 s is too short for a dozen round trips through the router.
  it('takes every button to Coming Soon on the client, in one document', async () => {
    await newPage(1280);
    await openPage(page, '/employers');
    await markDocument(page);
    let documentLoads = 0;
    page.on('load', () => {
      documentLoads += 1;
    });

    const signIn = page.getByRole('link', { name: 'Employer Sign In' });
    const mainButtons = page.getByRole('main').getByRole('link');
    expect(await mainButtons.count()).toBe(buttonLabels.length - 1);

    await clickAndExpectArrival(page, signIn, '/employers', '/coming-soon');
    for (let index = 0; index < buttonLabels.length - 1; index += 1) {
      await clickAndExpectArrival(page, mainButtons.nth(index), '/employers', '/coming-soon');
    }
    expect(await isSameDocument(page)).toBe(true);
    expect(documentLoads).toBe(0);
  }, 30_000);

  it('shows the four ratings at the assessment step', async () => {
    await newPage(1280);
    await openPage(page, '/employers');
    const ratings = page.getByRole('list', { name: 'Ratings' });
    expect(await ratings.getByRole('listitem').allTextContents()).toEqual(['Elite', 'Pro', 'Moderate', 'Basic']);
    for (const badge of await ratings.getByRole('listitem').all()) {
      await badge.waitFor({ state: 'visible' });
    }
  });

  it.each([320, 375, 768, 1280, 1920])('never scrolls sideways at %i px', async (width) => {
    await newPage(width);
    await openPage(page, '/employers');
    expect(await horizontalOverflow(page)).toBe(0);
  });

  it('shows the roles table whole on a 375 px phone, every Hire Now within reach', async () => {
    await newPage(375);
    await openPage(page, '/employers');
    const table = page.getByRole('table');
    const tableBox = await table.boundingBox();
    expect(tableBox!.x + tableBox!.width).toBeLessThanOrEqual(375);
    const actions = table.getByRole('link', { name: 'Hire Now' });
    expect(await actions.count()).toBe(6);
    for (const action of await actions.all()) {
      const box = await action.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    }
  });
});

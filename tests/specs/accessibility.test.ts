import type { BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from '../support/axe';
import { chromiumPerFile } from '../support/chromium';
import { gate } from '../support/gate';
import { allTabStops, contrastRatio, focused, tabThrough } from '../support/keyboard';
import { sidewaysScrolling } from '../support/layout';
import { openScreen, screens, type Screen } from '../support/screens';
import { navigateInApp, ports, shellUrl } from '../support/site';
import { expectEventually } from '../support/eventually';

const browser = chromiumPerFile();
let context: BrowserContext;
let page: Page;

afterEach(async () => {
  await context?.close();
});

async function newPage(width = 1280, options: { reducedMotion?: 'reduce' } = {}): Promise<Page> {
  context = await browser().newContext({ viewport: { width, height: 900 }, ...options });
  page = await context.newPage();
  return page;
}

async function open(screen: Screen, width = 1280): Promise<Page> {
  await newPage(width);
  await openScreen(page, screen);
  return page;
}

const names = (stops: ({ name: string } | null)[]) => stops.map((stop) => stop?.name ?? null);
const isFocused = (selector: string) =>
  page.evaluate((target) => document.activeElement === document.querySelector(target), selector);
const announced = () => page.evaluate(() => document.querySelector('[aria-live="polite"]')?.textContent ?? '');

describe.each(screens)('the $name screen', (screen) => {
  it('has lang="en", exactly one h1, its own title and the header, nav, main and footer landmarks', async () => {
    await open(screen);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.getByRole('heading', { level: 1 }).allTextContents()).toEqual([screen.heading]);
    // The error screen sets its title in an effect, after the render openScreen waits for.
    await expectEventually(() => page.title(), screen.title);
    const missing = [];
    for (const landmark of ['banner', 'navigation', 'main', 'contentinfo'] as const) {
      if ((await page.getByRole(landmark).count()) === 0) missing.push(landmark);
    }
    expect(missing).toEqual([]);
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('main').getAttribute('id')).toBe('main-content');
  });

  it.each([1280, 375])('has no serious or critical axe violations at %i px', async (width) => {
    await open(screen, width);
    expect(await seriousViolations(page)).toEqual([]);
    if (screen.menu && width < 768) {
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Employers' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    }
  });

  it('starts with a skip link that appears when focused and takes focus to the main content', async () => {
    await open(screen);
    const [first] = await tabThrough(page, 1);
    expect(first?.name).toBe('Skip to main content');
    expect(first!.box.width).toBeGreaterThan(100);
    expect(first!.box.y).toBeGreaterThanOrEqual(0);

    await page.keyboard.press('Enter');
    expect(await isFocused('#main-content')).toBe(true);
    expect(page.url()).toBe(shellUrl(screen.path));
    const [next] = await tabThrough(page, 1);
    expect(next?.insideHeader).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.closest('#main-content') !== null)).toBe(true);
  });

  it('shows a focus ring on every Tab stop, at 3:1 or more against what surrounds it', async () => {
    await open(screen);
    const stops = await allTabStops(page);
    expect(stops.length).toBeGreaterThan(2);
    const weak = stops
      .map((stop) => ({
        name: stop.name,
        style: stop.outlineStyle,
        width: stop.outlineWidth,
        contrast: Number(contrastRatio(stop.outlineColor, stop.background).toFixed(2)),
      }))
      .filter((ring) => ring.style === 'none' || ring.width < 2 || ring.contrast < 3);
    expect(weak).toEqual([]);
  });

  it('never scrolls sideways, from 320 to 1920 px', async () => {
    await open(screen, 320);
    expect(await sidewaysScrolling(page)).toEqual([]);
    if (screen.menu) {
      await page.setViewportSize({ width: 320, height: 900 });
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await sidewaysScrolling(page, [320])).toEqual([]);
    }
  });
});

describe('document titles', () => {
  it('are different on every screen', () => {
    const titles = screens.map((screen) => screen.title);
    expect(new Set(titles).size).toBe(titles.length);
  });
});

describe('the header by keyboard', () => {
  it.each([
    ['/', 'Candidate Sign In'],
    ['/employers', 'Employer Sign In'],
    ['/featured-jobs', 'Sign In'],
  ])('on %s at 1280 px: skip link, logo, the three links and sign-in, left to right', async (path, signIn) => {
    await open(screens.find((screen) => screen.path === path && !screen.downRemote)!);
    const stops = await tabThrough(page, 6);
    expect(names(stops)).toEqual([
      'Skip to main content',
      'NativeGTM home',
      'Candidates',
      'Employers',
      'Featured Jobs',
      signIn,
    ]);
    const xs = stops.slice(1).map((stop) => stop!.box.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
  });

  it.each(['/', '/employers', '/featured-jobs'])(
    'on %s at 375 px: the menu opens from the keyboard, its links follow in order and Escape closes it',
    async (path) => {
      await open(
        screens.find((screen) => screen.path === path && !screen.downRemote)!,
        375,
      );
      expect(names(await tabThrough(page, 3))).toEqual(['Skip to main content', 'NativeGTM home', 'Menu']);
      const toggle = page.getByRole('button', { name: 'Menu' });

      await page.keyboard.press('Enter');
      await expectEventually(() => toggle.getAttribute('aria-expanded'), 'true');
      const links = await tabThrough(page, 4);
      expect(names(links).slice(0, 3)).toEqual(['Candidates', 'Employers', 'Featured Jobs']);
      expect(links[3]?.name).toMatch(/Sign In$/);
      const ys = links.map((stop) => stop!.box.y);
      expect(ys).toEqual([...ys].sort((a, b) => a - b));

      await page.keyboard.press('Escape');
      await expectEventually(() => toggle.getAttribute('aria-expanded'), 'false');
      expect((await focused(page))?.name).toBe('Menu');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Employers' })
        .waitFor({ state: 'hidden' });
    },
  );

  it('on Coming Soon: skip link, logo, Back to Home, then the page', async () => {
    await open(screens.find((screen) => screen.path === '/coming-soon')!);
    expect(names(await tabThrough(page, 4))).toEqual([
      'Skip to main content',
      'NativeGTM home',
      'Back to Home',
      'Get Early Access (opens in a new tab)',
    ]);
  });

  it('never hides the focused control under the sticky header, even going backwards (Shift+Tab)', async () => {
    await open(screens[0]!);
    await page.getByRole('contentinfo').click();
    const stops = await tabThrough(page, 14, 'Shift+Tab');
    const headerBottom = (await page.getByRole('banner').boundingBox())!.height;
    const hidden = stops
      .filter((stop) => stop && !stop.insideHeader && (stop.box.y < headerBottom || stop.box.y + stop.box.height > 900))
      .map((stop) => `${stop!.name} at y=${Math.round(stop!.box.y)}`);
    expect(hidden).toEqual([]);
  });
});

describe('focus and announcements on navigation', () => {
  it('moves nothing and announces nothing on the first page load', async () => {
    await open(screens[0]!);
    expect(await focused(page)).toBeNull();
    expect(await announced()).toBe('');
  });

  it.each([
    ['a header link', '/', '/employers'],
    ['a button', '/employers', '/coming-soon'],
    ['a footer link', '/coming-soon', '/'],
  ])('after following %s, focuses the new h1 and announces the new title', async (_how, from, to) => {
    const start = screens.find((screen) => screen.path === from && !screen.downRemote)!;
    const target = screens.find((screen) => screen.path === to && !screen.downRemote)!;
    await open(start);
    const link =
      from === '/coming-soon'
        ? page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Candidates' })
        : page.locator(`a[href="${to}"]`).last();
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: target.heading }).waitFor();

    await expect(page.waitForFunction(() => document.activeElement?.tagName === 'H1')).resolves.toBeTruthy();
    expect((await focused(page))?.name).toBe(target.heading);
    await expect(
      page.waitForFunction(
        (title) => document.querySelector('[aria-live="polite"]')?.textContent === title,
        target.title,
      ),
    ).resolves.toBeTruthy();
    expect(await page.title()).toBe(target.title);
    // The page swapped in by the router, with the announcer now speaking, is as clean as a freshly loaded one.
    expect(await seriousViolations(page)).toEqual([]);

    await page.goBack();
    await page.getByRole('heading', { level: 1, name: start.heading }).waitFor();
    await expect(page.waitForFunction(() => document.activeElement?.tagName === 'H1')).resolves.toBeTruthy();
    await expectEventually(announced, start.title);
  });

  it('focuses the heading of the 404 page and of the error screen, and announces their titles', async () => {
    await newPage();
    await page.route(`http://localhost:${ports['jobs-mfe']}/**`, (route) => route.abort('connectionrefused'));
    await openScreen(page, screens[0]!);

    await navigateInApp(page, '/no-such-page');
    await page.getByRole('heading', { level: 1, name: 'Oops! Page not found' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    await page.waitForFunction(() =>
      document.querySelector('[aria-live="polite"]')?.textContent?.startsWith('Page not found'),
    );

    await navigateInApp(page, '/featured-jobs');
    await page.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' }).waitFor();
    await expectEventually(
      () => page.evaluate(() => document.activeElement?.textContent),
      'Unexpected Application Error!',
    );
    await page.waitForFunction(() =>
      document.querySelector('[aria-live="polite"]')?.textContent?.startsWith('Something went wrong'),
    );
  });

  it('keeps focus on a Featured Jobs filter while it changes the URL query', async () => {
    await open(screens.find((screen) => screen.path === '/featured-jobs')!);
    const functionSelect = page.getByRole('combobox', { name: 'Job Function' });
    await functionSelect.focus();
    await functionSelect.selectOption({ label: 'Product Management' });
    await page.waitForURL(shellUrl('/featured-jobs?function=product-management'));
    await page.getByText('3 jobs found').waitFor();
    expect(await functionSelect.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await announced()).toBe('');
  });
});

describe('reduced motion', () => {
  /** Every running transition or animation in the document, as "element: property duration". */
  const moving = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('*')].flatMap((element) => {
        const style = getComputedStyle(element);
        const found: string[] = [];
        if (style.transitionDuration.split(',').some((duration) => parseFloat(duration) > 0)) {
          found.push(`${element.className}: transition ${style.transitionDuration}`);
        }
        if (style.animationName !== 'none' && parseFloat(style.animationDuration) > 0) {
          found.push(`${element.className}: animation ${style.animationName}`);
        }
        return found;
      }),
    );

  it('leaves no transition or animation on any screen, and role cards do not lift on hover', async () => {
    await newPage(1280, { reducedMotion: 'reduce' });
    for (const screen of screens) {
      await openScreen(page, screen);
      expect([screen.name, await moving()]).toEqual([screen.name, []]);
    }
    await openScreen(page, screens[0]!);
    const card = page.getByRole('article').first();
    await card.hover();
    expect(await card.evaluate((element) => getComputedStyle(element).transform)).toBe('none');
    expect(await card.evaluate((element) => getComputedStyle(element).borderColor)).not.toBe('');
  });

  it.each([
    ['animates', undefined, true],
    ['holds still', 'reduce' as const, false],
  ])('the loading spinner and progress bar: %s', async (_case, reducedMotion, animated) => {
    await newPage(1280, { reducedMotion });
    const employersManifest = gate();
    const comingSoonManifest = gate();
    await page.route(`http://localhost:${ports['employers-mfe']}/mf-manifest.json`, async (route) => {
      await employersManifest.wait;
      await route.continue();
    });
    await page.route(`http://localhost:${ports['coming-soon-mfe']}/mf-manifest.json`, async (route) => {
      await comingSoonManifest.wait;
      await route.continue();
    });
    const animationOf = (selector: string) =>
      page.locator(selector).evaluate((element) => getComputedStyle(element).animationName);

    // First visit without the page's server HTML (as when its remote's HTML did not arrive in time): the loading
    // screen's spinner. The HTML is taken out as the document parses.
    await page.addInitScript(() => {
      new MutationObserver(() => document.querySelector('body > [data-remote]')?.remove()).observe(document, {
        childList: true,
        subtree: true,
      });
    });
    await page.goto(shellUrl('/employers'), { waitUntil: 'commit' });
    await page.getByRole('status').filter({ hasText: 'Loading page' }).waitFor();
    expect((await animationOf('[role="status"] [aria-hidden="true"]')) !== 'none').toBe(animated);
    employersManifest.open();
    await page.getByRole('heading', { level: 1, name: 'Hire Vetted AI-Native GTM Talent' }).waitFor();

    // Client-side navigation: the shell's progress bar.
    await navigateInApp(page, '/coming-soon');
    await page.getByRole('status').filter({ hasText: 'Loading page' }).waitFor();
    expect((await animationOf('[role="status"] [aria-hidden="true"]')) !== 'none').toBe(animated);
    comingSoonManifest.open();
    await page.getByRole('heading', { level: 1, name: 'NativeGTM is Coming Soon' }).waitFor();
  });
});

import type { Page } from 'playwright-core';
import { chromiumPerFile } from '../support/chromium';
import { rawGet } from '../support/rawGet';
import { collectConsoleErrors, navigateInApp, pages, ports, shellUrl } from '../support/site';

// The documents enforce Trusted Types (require-trusted-types-for 'script'): script URLs reach the DOM only through
// the site's named policies (webpack's chunk loading, the shell's federation runtime plugin, the boot script). In
// Chromium, which enforces them: no screen and no failure path may trip a violation. (Firefox and WebKit run the same
// site in engines.test.ts.)

const browser = chromiumPerFile();
const jobsOrigin = `http://localhost:${ports['jobs-mfe']}`;

/** A page that records every CSP violation (Trusted Types ones included) and every console error. */
async function watchedPage(): Promise<{ page: Page; violations: string[]; errors: string[] }> {
  const page = await browser().newPage();
  const violations: string[] = [];
  await page.exposeFunction('__violation', (text: string) => void violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __violation: (text: string) => void }).__violation(
        `${event.violatedDirective} ${event.blockedURI} ${event.sample}`,
      );
    });
  });
  return { page, violations, errors: collectConsoleErrors(page) };
}

const hydrated = (page: Page, heading: string) =>
  page.waitForFunction((expected) => {
    const h1 = document.querySelector('h1');
    return h1?.textContent === expected && Object.keys(h1).some((key) => key.startsWith('__reactFiber'));
  }, heading);

describe('Trusted Types', () => {
  it('are required by the documents of both servers, for the policies the site creates', async () => {
    const csp = String((await rawGet(ports.shell!, '/employers')).headers['content-security-policy']);
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).toContain("trusted-types nativegtm-webpack nativegtm-federation nativegtm-boot 'allow-duplicates'");
  });

  it('are enforced: page code cannot turn a plain string into a script URL', async () => {
    const { page } = await watchedPage();
    await page.goto(shellUrl('/employers'));
    const outcome = await page.evaluate(() => {
      try {
        document.createElement('script').src = '/injected.js';
        return 'assigned';
      } catch (error) {
        return error instanceof TypeError ? 'refused' : String(error);
      }
    });
    expect(outcome).toBe('refused');
    await page.close();
  });

  it('trip no violation on any screen, loaded and hydrated, then navigated on the client', async () => {
    const { page, violations, errors } = await watchedPage();
    for (const route of pages) {
      await page.goto(shellUrl(route.path));
      await hydrated(page, route.heading);
    }
    await page.goto(shellUrl('/'));
    await hydrated(page, pages[0]!.heading);
    for (const route of [...pages.slice(1), pages[0]!]) {
      await navigateInApp(page, route.path);
      await hydrated(page, route.heading);
    }
    await page.goto(shellUrl('/no-such-page'));
    await page.getByRole('heading', { level: 1, name: 'Oops! Page not found' }).waitFor();
    expect(violations).toEqual([]);
    expect(errors.filter((line) => !line.includes('404'))).toEqual([]);
    await page.close();
  });

  it('trip no violation when a remote is down, nor when Try again loads it once it is back', async () => {
    const { page, violations } = await watchedPage();
    let down = true;
    await page.route(`${jobsOrigin}/**`, (route) => (down ? route.abort('connectionrefused') : route.continue()));
    await page.goto(shellUrl('/employers'));
    await hydrated(page, pages.find((route) => route.path === '/employers')!.heading);
    // On the client, to a remote that is down: the error screen, through the federation runtime's script loading.
    await navigateInApp(page, '/featured-jobs');
    await page.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' }).waitFor();
    down = false;
    // The retry runs the remote's entry again: its webpack runtime creates its policy a second time.
    await page.getByRole('button', { name: 'Try again' }).click();
    await hydrated(page, 'Featured Jobs');
    expect(violations).toEqual([]);
    await page.close();
  });
});

// The gate's checks in headless Chromium: the release's page, composed with the live site, arrives as server HTML,
// hydrates in place with no console error, hydration warning or CSP violation, and is reached by in-app navigation
// from another page. Also reads which shared singletons the live shell provides, from its federation runtime.
const { chromium } = require('playwright-core');
const { bodyWrapperStart } = require('@nativegtm/contract/fragments');
const {
  headingIsNot,
  navigateInApp,
  pause,
  reactOwnsHeading,
  shellSingletons,
  shownHeading,
  watchFromFirstScript,
} = require('./inPage');

/** @typedef {import('./buildChecks').Check} Check */
/** @typedef {import('playwright-core').Page} Page */

/** How long a page has to hydrate or render. */
const RENDER_TIMEOUT_MS = 15000;
/** Console warnings that mean the page is broken even though it shows: a hydration mismatch, a singleton refused. */
const FATAL_WARNING = /hydrat|did not match|unsatisfied|version.*(not|doesn't) satisfy|singleton/i;

/**
 * Watches a page from its first script: CSP violations, and the h1 the server sent.
 * @param {Page} page
 */
async function watch(page) {
  /** @type {string[]} */
  const problems = [];
  page.on('console', (message) => {
    const type = message.type();
    if (type === 'error' || (type === 'warning' && FATAL_WARNING.test(message.text()))) {
      // The message's first line: the stack's frames are minified file positions.
      problems.push(`console ${type}: ${message.text().split('\n')[0]?.slice(0, 300)}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message.slice(0, 300)}`));
  await page.addInitScript(watchFromFirstScript);
  return problems;
}

/**
 * Waits until React owns an h1 (the page's, or the shell's error screen); returns its text, whether it is the error
 * screen and whether it is the very element the server sent.
 * @param {Page} page
 */
async function untilRendered(page) {
  await page.waitForFunction(reactOwnsHeading, null, { timeout: RENDER_TIMEOUT_MS });
  // Effects and late errors (a component that throws after its first commit) surface within a moment.
  await page.evaluate(pause, 500);
  return page.evaluate(shownHeading);
}

/**
 * The versions of each shared package the shell's federation runtime registered itself.
 * @param {Page} page
 * @returns {Promise<Record<string, string[]>>}
 */
function providedSingletons(page) {
  return page.evaluate(shellSingletons);
}

/**
 * @param {{ origin: string, remote: string, route: string, otherRoute: string, buildId: string,
 *   chromiumPath: string }} options chromiumPath: Debian's Chromium unless CHROME_PATH says otherwise
 * @returns {Promise<{ checks: Check[], provided: Record<string, string[]> | undefined }>}
 */
async function browserChecks({ origin, remote, route, otherRoute, buildId, chromiumPath }) {
  /** @type {Check[]} */
  const checks = [];
  const response = await fetch(new URL(route, origin));
  const html = await response.text();
  const wrapper = bodyWrapperStart(remote, buildId);
  checks.push(
    response.status === 200 && html.includes(wrapper)
      ? { name: 'server HTML', ok: true }
      : {
          name: 'server HTML',
          ok: false,
          detail:
            response.status === 200
              ? `${route} answered 200 without this release's HTML (build ${buildId})`
              : `${route} answered ${response.status}`,
        },
  );

  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  /** @type {Record<string, string[]> | undefined} */
  let provided;
  try {
    for (const [name, start] of /** @type {const} */ ([
      ['hydration', route],
      ['in-app navigation', otherRoute],
    ])) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const problems = await watch(page);
      try {
        const loaded = await page.goto(new URL(start, origin).href);
        if (loaded?.status() !== 200) problems.push(`${start} answered ${loaded?.status()}`);
        let shown = await untilRendered(page);
        if (name === 'hydration') {
          provided = await providedSingletons(page);
          if (!shown.inPlace) problems.push('the server HTML was replaced instead of hydrated');
        } else {
          const before = shown.heading;
          await page.evaluate(navigateInApp, route);
          await page.waitForFunction(headingIsNot, before, { timeout: RENDER_TIMEOUT_MS });
          shown = await untilRendered(page);
        }
        if (shown.errorScreen) problems.push(`the error screen is shown ("${shown.heading}")`);
        problems.push(...shown.violations.map((violation) => `CSP violation: ${violation}`));
      } catch (error) {
        problems.push(/** @type {Error} */ (error).message.split('\n')[0] ?? 'failed');
      } finally {
        await context.close();
      }
      checks.push(problems.length === 0 ? { name, ok: true } : { name, ok: false, detail: problems.join('; ') });
    }
  } finally {
    await browser.close();
  }
  return { checks, provided };
}

module.exports = { browserChecks };

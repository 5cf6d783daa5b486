// The gate's checks in headless Chromium: the release's page, composed with the live site, hydrates in place with no
// console error, hydration warning or CSP violation, and is reached by in-app navigation from another page. Also reads
// which shared singletons the live shell provides, from its federation runtime.
//
// The browser gets the time a busy machine needs, and a try that runs out of it before anything went wrong could not
// judge, as does one whose document says nothing of the release (serverHtml.js: its page's HTML did not come in
// time); each check is then tried once more (verdict.js). What went wrong before the time ran out (an error, a
// violation, the error screen) is the release's failure. A browser that does not start or fails judges nothing.
const { chromium, errors } = require('playwright-core');
const { judgedInTwoTries } = require('./verdict');
const { unjudgedDocument } = require('./serverHtml');
const {
  headingIsNot,
  navigateInApp,
  pause,
  reactOwnsHeading,
  remoteTimeout,
  shellSingletons,
  shownHeading,
  watchFromFirstScript,
} = require('./inPage');

/** @typedef {import('./verdict').Outcome} Outcome */
/** @typedef {import('playwright-core').Browser} Browser */
/** @typedef {import('playwright-core').Page} Page */

/** How long a page has to load (its `load` event), and then to hydrate or render. */
const LOAD_TIMEOUT_MS = 30_000;
const RENDER_TIMEOUT_MS = 15_000;
/** Console warnings that mean the page is broken even though it shows: a hydration mismatch, a singleton refused. */
const FATAL_WARNING = /hydrat|did not match|unsatisfied|version.*(not|doesn't) satisfy|singleton/i;

/** @param {unknown} error its message's first line */
const firstLine = (error) => String(/** @type {Error} */ (error).message ?? error).split('\n')[0] ?? '';

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
  // As long as the gate waits for the page in all: the gate's own limit comes first.
  await page.addInitScript(remoteTimeout, LOAD_TIMEOUT_MS + RENDER_TIMEOUT_MS);
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
 * One try of a browser check in a fresh context: `steps` drive the page and add what went wrong to `problems`, or
 * return why this try cannot judge.
 * @param {Browser} browser
 * @param {string} name
 * @param {(page: Page, problems: string[]) => Promise<string | void>} steps
 * @returns {Promise<Outcome>}
 */
async function tryInBrowser(browser, name, steps) {
  let context;
  try {
    context = await browser.newContext();
  } catch (error) {
    return { name, undecided: `its browser failed (${firstLine(error)})` };
  }
  try {
    const page = await context.newPage();
    const problems = await watch(page);
    try {
      const undecided = await steps(page, problems);
      if (undecided) return { name, undecided };
    } catch (error) {
      if (error instanceof errors.TimeoutError && problems.length === 0) {
        return { name, undecided: `the browser ran out of time (${firstLine(error)})` };
      }
      problems.push(firstLine(error) || 'failed');
    }
    return problems.length === 0 ? { name, ok: true } : { name, ok: false, detail: problems.join('; ') };
  } finally {
    await context.close();
  }
}

/**
 * @param {{ origin: string, route: string, otherRoute: string, chromiumPath: string }} options chromiumPath:
 *   Debian's Chromium unless CHROME_PATH says otherwise
 * @returns {Promise<{ hydration: Outcome, navigation: Outcome, provided: Record<string, string[]> | undefined }>}
 *   provided: the versions of each shared package the shell's federation runtime registered itself, as the
 *   hydration's page read them
 */
async function browserChecks({ origin, route, otherRoute, chromiumPath }) {
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    });
  } catch (error) {
    const undecided = `its browser did not start (${firstLine(error)})`;
    return {
      hydration: { name: 'hydration', undecided },
      navigation: { name: 'in-app navigation', undecided },
      provided: undefined,
    };
  }
  /** @type {Record<string, string[]> | undefined} */
  let provided;
  const at = (/** @type {string} */ path) => new URL(path, origin).href;
  try {
    const hydration = await judgedInTwoTries(() =>
      tryInBrowser(browser, 'hydration', async (page, problems) => {
        provided = undefined;
        const loaded = await page.goto(at(route), { timeout: LOAD_TIMEOUT_MS });
        const status = loaded?.status() ?? 0;
        const undecided = unjudgedDocument(route, status, await loaded?.headerValue('server-timing'));
        if (undecided) return undecided;
        if (status !== 200) problems.push(`${route} answered ${status}`);
        const shown = await untilRendered(page);
        provided = await page.evaluate(shellSingletons);
        if (!shown.inPlace) problems.push('the server HTML was replaced instead of hydrated');
        if (shown.errorScreen) problems.push(`the error screen is shown ("${shown.heading}")`);
        problems.push(...shown.violations.map((violation) => `CSP violation: ${violation}`));
      }),
    );
    const navigation = await judgedInTwoTries(() =>
      tryInBrowser(browser, 'in-app navigation', async (page, problems) => {
        const loaded = await page.goto(at(otherRoute), { timeout: LOAD_TIMEOUT_MS });
        const status = loaded?.status() ?? 0;
        // Not its Server-Timing: the other page's HTML may be late (the shell then renders it), the check is the
        // navigation.
        const undecided = unjudgedDocument(otherRoute, status, undefined);
        if (undecided) return undecided;
        if (status !== 200) problems.push(`${otherRoute} answered ${status}`);
        const before = (await untilRendered(page)).heading;
        await page.evaluate(navigateInApp, route);
        await page.waitForFunction(headingIsNot, before, { timeout: RENDER_TIMEOUT_MS });
        const shown = await untilRendered(page);
        if (shown.errorScreen) problems.push(`the error screen is shown ("${shown.heading}")`);
        problems.push(...shown.violations.map((violation) => `CSP violation: ${violation}`));
      }),
    );
    return { hydration, navigation, provided };
  } finally {
    await browser.close();
  }
}

module.exports = { browserChecks };

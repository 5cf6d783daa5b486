// Chromium through playwright-core (Chrome DevTools Protocol): Debian's chromium, or CHROME_PATH.
const { chromium } = require('playwright-core');
const { PageSession } = require('./pageSession');
const { locateTool } = require('../systemTools');

/**
 * Flags for a headless Chromium on a machine without a GPU or outside network. No sandbox: the tests run as root in
 * CI, where Chromium refuses to start with one, and they only ever open this site.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** @extends {PageSession<import('playwright-core').Page>} */
class ChromiumSession extends PageSession {
  /**
   * @override
   * @param {string} selector
   * @param {number} index
   */
  clickAt(selector, index) {
    return this.page.locator(selector).nth(index).click();
  }

  /**
   * @override
   * @param {string} selector
   * @param {string} value
   */
  async select(selector, value) {
    await this.page.selectOption(selector, value);
  }

  /**
   * @override
   * @param {number} width
   * @param {number} height
   */
  setViewport(width, height) {
    return this.page.setViewportSize({ width, height });
  }

  /**
   * @override
   * @param {() => void} fn
   */
  async addInitScript(fn) {
    await this.page.addInitScript(fn);
  }
}

/** @returns {Promise<import('./index').Engine>} */
async function launchChromiumEngine() {
  const executablePath = locateTool('CHROME_PATH');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  /** @type {import('./session').EngineInfo} */
  const engine = { name: 'chromium', label: `Chromium ${browser.version()}` };
  return {
    ...engine,
    /** Chromium reports console errors and runs init scripts itself: the site is opened at its own origin. */
    origin: async (siteOrigin) => siteOrigin,
    async newSession({ width = 1280, height = 900 } = {}) {
      const context = await browser.newContext({ viewport: { width, height } });
      return new ChromiumSession(engine, context, await context.newPage());
    },
    close: () => browser.close(),
  };
}

module.exports = { launchChromiumEngine, CHROMIUM_ARGS };

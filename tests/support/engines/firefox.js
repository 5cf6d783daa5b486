// Firefox through puppeteer-core over WebDriver BiDi: Debian's firefox-esr (its current ESR: tested with 140 and
// 153), or FIREFOX_PATH. (playwright-core drives
// only its own patched Firefox builds, which cannot be downloaded here.)
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const puppeteer = require('puppeteer-core');
const { PageSession } = require('./pageSession');
const { locateTool } = require('../systemTools');
const { stopProcessGroup } = require('./processes');

/**
 * Puppeteer asks for a screen-orientation override with every viewport change; Firefox ESR 140 lacks the command,
 * and the resize itself is applied before it fails.
 * @param {unknown} error
 */
function ignoreMissingOrientation(error) {
  const message = error instanceof Error ? error.message : '';
  if (!/setScreenOrientationOverride/.test(message)) throw error;
}

/** @extends {PageSession<import('puppeteer-core').Page>} */
class FirefoxSession extends PageSession {
  /**
   * @override
   * @param {string} selector
   * @param {number} index
   */
  async clickAt(selector, index) {
    const element = (await this.page.$$(selector))[index];
    if (!element) throw new Error(`${this.engine.label}: no ${selector} number ${index + 1}`);
    await element.click();
  }

  /**
   * @override
   * @param {string} selector
   * @param {string} value
   */
  async select(selector, value) {
    await this.page.select(selector, value);
  }

  /**
   * @override
   * @param {number} width
   * @param {number} height
   */
  setViewport(width, height) {
    return this.page.setViewport({ width, height }).catch(ignoreMissingOrientation);
  }

  /**
   * @override
   * @param {() => void} fn
   */
  async addInitScript(fn) {
    await this.page.evaluateOnNewDocument(fn);
  }
}

/** @returns {Promise<import('./index').Engine>} */
async function launchFirefoxEngine() {
  const executablePath = locateTool('FIREFOX_PATH');
  // Firefox writes its profile, caches and downloads under HOME: a scratch one keeps the user's home untouched.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-firefox-'));
  const removeHome = () => fs.rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  let browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath,
      headless: true,
      env: { ...process.env, HOME: home },
      // With the back-forward cache on, Firefox ESR 140 answers BiDi's reload command only at its timeout; visitors'
      // caching is not what these tests are about.
      extraPrefsFirefox: { 'browser.sessionhistory.max_total_viewers': 0 },
      defaultViewport: null,
    });
  } catch (error) {
    removeHome();
    throw error;
  }
  /** @type {import('./session').EngineInfo} */
  const engine = { name: 'firefox', label: `Firefox ${(await browser.version()).replace(/^firefox\//i, '')}` };
  return {
    ...engine,
    /** BiDi reports console errors and runs init scripts: the site is opened at its own origin. */
    origin: async (siteOrigin) => siteOrigin,
    async newSession({ width = 1280, height = 900 } = {}) {
      const context = await browser.createBrowserContext();
      const session = new FirefoxSession(engine, context, await context.newPage());
      await session.setViewport(width, height);
      return session;
    },
    async close() {
      // Puppeteer starts Firefox as the leader of its own process group; its fork server and helpers outlive it.
      const pgid = browser.process()?.pid;
      try {
        await browser.close();
      } finally {
        await stopProcessGroup(pgid);
        removeHome();
      }
    },
  };
}

module.exports = { launchFirefoxEngine };

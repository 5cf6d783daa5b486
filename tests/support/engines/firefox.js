// Firefox through puppeteer-core over WebDriver BiDi: Debian's firefox-esr, or FIREFOX_PATH. (playwright-core drives
// only its own patched Firefox builds, which cannot be downloaded here.)
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const puppeteer = require('puppeteer-core');
const { PageSession } = require('./pageSession');
const { locateTool } = require('../systemTools');

/** Puppeteer asks for a screen-orientation override with every viewport change; Firefox ESR 140 lacks the command,
 * and the resize itself is applied before it fails. */
function ignoreMissingOrientation(error) {
  if (!/setScreenOrientationOverride/.test(String(error?.message))) throw error;
}

class FirefoxSession extends PageSession {
  async clickAt(selector, index) {
    const element = (await this.page.$$(selector))[index];
    if (!element) throw new Error(`${this.engine.label}: no ${selector} number ${index + 1}`);
    await element.click();
  }

  async select(selector, value) {
    await this.page.select(selector, value);
  }

  setViewport(width, height) {
    return this.page.setViewport({ width, height }).catch(ignoreMissingOrientation);
  }

  async addInitScript(fn) {
    await this.page.evaluateOnNewDocument(fn);
  }
}

async function launchFirefoxEngine() {
  // Firefox writes its profile, caches and downloads under HOME: a scratch one keeps the user's home untouched.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: locateTool('FIREFOX_PATH'),
    headless: true,
    env: { ...process.env, HOME: home },
    // With the back-forward cache on, Firefox ESR 140 answers BiDi's history and reload commands only at their
    // timeout; visitors' caching is not what these tests are about.
    extraPrefsFirefox: { 'browser.sessionhistory.max_total_viewers': 0 },
    defaultViewport: null,
  });
  const engine = { name: 'firefox', label: `Firefox ${(await browser.version()).replace(/^firefox\//i, '')}` };
  return {
    ...engine,
    /** BiDi reports console errors and runs init scripts: the site is opened at its own origin. */
    origin: async (siteOrigin) => siteOrigin,
    async newSession({ width = 1280, height = 900 } = {}) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width, height }).catch(ignoreMissingOrientation);
      return new FirefoxSession(engine, context, page);
    },
    async close() {
      await browser.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

module.exports = { launchFirefoxEngine };

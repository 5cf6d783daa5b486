// What Chromium (playwright-core) and Firefox (puppeteer-core) sessions have in common: both libraries hand out a
// page object with the same events and nearly the same calls, inside a browser context of its own.
const { Session } = require('./session');

class PageSession extends Session {
  /**
   * @param {import('./session').EngineInfo} engine
   * @param {{ close(): Promise<void> }} context  closed with the session, with everything it holds
   * @param {any} page  a playwright-core or puppeteer-core page
   */
  constructor(engine, context, page) {
    super(engine);
    this.context = context;
    this.page = page;
    this.errors = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // A failed load names no resource in its text ("Failed to load resource: … 404"): the URL is kept with it, so
      // a test can tell the 404 document it asked for from a missing script.
      const url = message.location()?.url;
      const text = message.text();
      this.errors.push(url && text.startsWith('Failed to load resource') ? `${text} (${url})` : text);
    });
    page.on('pageerror', (error) => this.errors.push(`Uncaught ${error.name}: ${error.message}`));
  }

  async goto(url) {
    await this.page.goto(url, { waitUntil: 'load' });
  }

  evaluate(fn, arg) {
    return this.page.evaluate(fn, arg);
  }

  async screenshot(file, { fullPage = false } = {}) {
    await this.page.screenshot({ path: file, fullPage });
  }

  async reload() {
    await this.page.reload({ waitUntil: 'load' });
  }

  async consoleErrors() {
    return [...this.errors];
  }

  close() {
    return this.context.close();
  }
}

module.exports = { PageSession };

// What Chromium (playwright-core) and Firefox (puppeteer-core) sessions have in common: both libraries hand out a
// page object with the same events and nearly the same calls, inside a browser context of its own.
const { Session } = require('./session');

/**
 * What this file asks of a page: the part of the two libraries' pages that is the same in both. Methods, not
 * function-valued properties, so that parameters compare both ways: each library types its callbacks in its own way.
 * The two events are apart because puppeteer-core's one generic `on` matches each alone, not the pair of overloads.
 * puppeteer-core passes pageerror whatever the page threw, not only errors.
 * @typedef {{ on(event: 'console', listener: (message: ConsoleMessage) => void): unknown }
 *   & { on(event: 'pageerror', listener: (error: unknown) => void): unknown }
 *   & { goto(url: string, options: { waitUntil: 'load' }): Promise<unknown>,
 *       evaluate(fn: string | ((arg: never) => unknown), arg: unknown): Promise<unknown>,
 *       screenshot(options: { path: string, fullPage: boolean }): Promise<unknown>,
 *       reload(options: { waitUntil: 'load' }): Promise<unknown> }} LibraryPage
 */

/**
 * @typedef {object} ConsoleMessage
 * @property {() => string} type
 * @property {() => { url?: string } | undefined} location
 * @property {() => string} text
 */

/** @template {LibraryPage} P */
class PageSession extends Session {
  /**
   * @param {import('./session').EngineInfo} engine
   * @param {{ close(): Promise<void> }} context  closed with the session, with everything it holds
   * @param {P} page  a playwright-core or puppeteer-core page
   */
  constructor(engine, context, page) {
    super(engine);
    this.context = context;
    this.page = page;
    /** @type {string[]} */
    this.errors = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // A failed load names no resource in its text ("Failed to load resource: … 404"): the URL is kept with it, so
      // a test can tell the 404 document it asked for from a missing script.
      const url = message.location()?.url;
      const text = message.text();
      this.errors.push(url && text.startsWith('Failed to load resource') ? `${text} (${url})` : text);
    });
    page.on('pageerror', (error) =>
      this.errors.push(`Uncaught ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`),
    );
  }

  /**
   * @override
   * @param {string} url
   */
  async goto(url) {
    await this.page.goto(url, { waitUntil: 'load' });
  }

  /**
   * @override
   * @template A, R
   * @param {(arg: A) => R | Promise<R>} fn
   * @param {A} [arg]
   * @returns {Promise<R>}
   */
  evaluate(fn, arg) {
    // Both libraries resolve with what the function's promise resolved to.
    return /** @type {Promise<R>} */ (this.page.evaluate(fn, arg));
  }

  /**
   * @override
   * @param {string} file
   * @param {import('./session').ScreenshotOptions} [options]
   */
  async screenshot(file, { fullPage = false } = {}) {
    await this.page.screenshot({ path: file, fullPage });
  }

  /** @override */
  async reload() {
    await this.page.reload({ waitUntil: 'load' });
  }

  /** @override */
  async consoleErrors() {
    return [...this.errors];
  }

  /** @override */
  close() {
    return this.context.close();
  }
}

module.exports = { PageSession };

// What a spec may ask of a browser tab, whatever engine and protocol is behind it. Each engine (chromium.js,
// firefox.js, webkit.js) implements the primitives; what can be built from them lives here, once.
//
// Functions passed to evaluate, waitFor and addInitScript run in the page: they are sent as source text, so they
// may use only their one argument (JSON-serialisable) and the page's globals, never variables of the test.
/* global window, document -- functions passed to evaluate run in the page */
const { reactOwnsHeading } = require('./inPage');

/**
 * @typedef {object} EngineInfo
 * @property {'chromium' | 'firefox' | 'webkit'} name
 * @property {string} label  what a failure message calls it, e.g. "WebKit (WebKitGTK 2.50, MiniBrowser)"
 */

/** @typedef {{ fullPage?: boolean }} ScreenshotOptions */

class Session {
  /** @param {EngineInfo} engine */
  constructor(engine) {
    this.engine = engine;
  }

  /* Primitives every engine implements. */

  /** A full page load of `url`; resolves after the load event. @param {string} url @returns {Promise<void>} */
  goto(url) {
    return this.unsupported('goto', url);
  }

  /**
   * Runs `fn(arg)` in the page and resolves with its (awaited, JSON-serialisable) result.
   * @template A, R
   * @param {(arg: A) => R | Promise<R>} fn
   * @param {A} [arg]
   * @returns {Promise<R>}
   */
  evaluate(fn, arg) {
    return this.unsupported('evaluate', fn, arg);
  }

  /**
   * A real pointer click (the engine's own input, not element.click()) on the `index`th match of a CSS selector.
   * Specs call click().
   * @param {string} selector
   * @param {number} index
   * @returns {Promise<void>}
   */
  clickAt(selector, index) {
    return this.unsupported('clickAt', selector, index);
  }

  /**
   * Chooses the option with this value in the <select> matched by `selector`, as a visitor would.
   * @param {string} selector
   * @param {string} value
   * @returns {Promise<void>}
   */
  select(selector, value) {
    return this.unsupported('select', selector, value);
  }

  /**
   * The size of the page's viewport in CSS pixels (what window.innerWidth reports).
   * @param {number} width
   * @param {number} height
   * @returns {Promise<void>}
   */
  setViewport(width, height) {
    return this.unsupported('setViewport', width, height);
  }

  /**
   * Writes a PNG of the viewport, or of the whole page with `fullPage`.
   * @param {string} file
   * @param {ScreenshotOptions} [options]
   * @returns {Promise<void>}
   */
  screenshot(file, options = { fullPage: false }) {
    return this.unsupported('screenshot', file, options);
  }

  /**
   * Reloads the document and waits for its load event.
   * @returns {Promise<void>}
   */
  reload() {
    return this.unsupported('reload');
  }

  /**
   * Console errors and uncaught errors of every document this session has shown, oldest first.
   * @returns {Promise<string[]>}
   */
  consoleErrors() {
    return this.unsupported('consoleErrors');
  }

  /**
   * Runs `fn()` in every document this session loads from now on, before the document's own scripts.
   * @param {() => void} fn
   * @returns {Promise<void>}
   */
  addInitScript(fn) {
    return this.unsupported('addInitScript', fn);
  }

  /** @returns {Promise<void>} */
  close() {
    return this.unsupported('close');
  }

  /* Built on the primitives. */

  /**
   * Resolves once `fn(arg)` returns a truthy value in the page; fails after `timeoutMs` saying what it waited for.
   * @template A
   * @param {(arg: A) => unknown} fn
   * @param {A} [arg]
   * @param {{ timeoutMs?: number, what?: string }} [options]
   * @returns {Promise<unknown>}
   */
  async waitFor(fn, arg, { timeoutMs = 10_000, what = String(fn) } = {}) {
    const deadline = Date.now() + timeoutMs;
    let lastError;
    for (;;) {
      try {
        const value = await this.evaluate(fn, arg);
        if (value) return value;
        lastError = undefined;
      } catch (error) {
        // A document being replaced (a navigation) cannot be asked; ask the next one.
        lastError = error;
      }
      if (Date.now() > deadline) {
        const message = lastError instanceof Error ? lastError.message : String(lastError);
        const detail = lastError ? ` (last error: ${message.split('\n')[0]})` : '';
        throw new Error(`${this.engine.label}: still waiting after ${timeoutMs} ms for ${what}${detail}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * A real pointer click on the first match of `selector`, or on the first whose text is `text`.
   * @param {string} selector
   * @param {{ text?: string }} [options]
   */
  async click(selector, { text } = {}) {
    const index =
      text === undefined
        ? 0
        : await this.evaluate(
            (query) =>
              [...document.querySelectorAll(query.selector)].findIndex(
                (element) => element.textContent?.trim() === query.text,
              ),
            { selector, text },
          );
    if (index < 0) throw new Error(`${this.engine.label}: no ${selector} reads "${text}"`);
    await this.clickAt(selector, index);
  }

  /**
   * Waits until React owns the screen's h1 (hydrated or rendered; with the text `heading` when given), then until the
   * page has settled: hydration runs in a transition, in slices, and React marks a node as its own before it commits,
   * so a check made at once could still see server HTML that React is about to replace.
   * @param {string} [heading]
   */
  async untilRendered(heading) {
    await this.waitFor(reactOwnsHeading, heading ?? null, {
      what: heading ? `the screen "${heading}", rendered by React` : 'a screen rendered by React',
      timeoutMs: 20_000,
    });
    await this.evaluate(
      () =>
        new Promise((resolve) => {
          const idle = () => ('requestIdleCallback' in window ? window.requestIdleCallback(resolve) : resolve(null));
          setTimeout(idle, 300);
        }),
    );
  }

  /**
   * The document's URL.
   * @returns {Promise<string>}
   */
  url() {
    return this.evaluate(() => window.location.href);
  }

  /**
   * The primitives above pass their arguments on, which keeps their parameters, the signature every engine
   * implements, declared in this class.
   * @type {(primitive: string, ...args: unknown[]) => Promise<never>}
   */
  unsupported(primitive) {
    return Promise.reject(new Error(`${this.engine.label}: the driver does not implement ${primitive}`));
  }
}

module.exports = { Session };

/** @jest-environment jsdom */
// boot.js as the browser runs it: evaluated with document.currentScript set to its own <script> element.
const fs = require('node:fs');
const path = require('node:path');

const source = fs.readFileSync(path.join(__dirname, 'boot.js'), 'utf8');

/** @param {{ serverPage?: boolean, visibility?: DocumentVisibilityState, integrity?: string }} [options] */
function boot({ serverPage = true, visibility = 'visible', integrity } = {}) {
  document.head.innerHTML = '';
  document.body.innerHTML = `<div id="root"></div>${serverPage ? '<main data-remote="jobs" data-build="b1"></main>' : ''}`;
  const script = document.createElement('script');
  script.setAttribute('data-scripts', '/main.1.js /extra.2.js');
  script.setAttribute('data-fetches', '/remotes.json');
  if (integrity !== undefined) script.setAttribute('data-integrity', integrity);
  document.head.appendChild(script);
  Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
  Object.defineProperty(document, 'visibilityState', { value: visibility, configurable: true });
  new Function(source)();
}

const started = () => [...document.head.querySelectorAll('script[src]')].map((script) => script.getAttribute('src'));
const preloaded = () =>
  [...document.head.querySelectorAll('link[rel="preload"]')].map((link) => link.getAttribute('href'));

/**
 * A PerformanceObserver that reports paint entries when the test says so.
 * @param {{ painted?: boolean }} [options]
 */
function fakePaintTiming({ painted = false } = {}) {
  /** @type {FakePerformanceObserver[]} */
  const observers = [];
  /** The part of PerformanceObserver boot.js uses. */
  class FakePerformanceObserver {
    static supportedEntryTypes = ['paint'];
    /**
     * @param {(list: { getEntriesByName(name: string): { name: string }[] }, observer: FakePerformanceObserver) => void}
     *   callback
     */
    constructor(callback) {
      this.callback = callback;
      this.disconnected = false;
    }
    observe() {
      observers.push(this);
    }
    disconnect() {
      this.disconnected = true;
    }
  }
  Object.assign(window, { PerformanceObserver: FakePerformanceObserver });
  const entries = painted ? [{ name: 'first-contentful-paint' }] : [];
  // jsdom's performance has no entries API.
  Object.defineProperty(performance, 'getEntriesByName', {
    configurable: true,
    value: (/** @type {string} */ name) => entries.filter((entry) => entry.name === name),
  });
  return {
    /** @param {string} name */
    paint(name) {
      for (const observer of observers.filter((o) => !o.disconnected)) {
        observer.callback({ getEntriesByName: (wanted) => (wanted === name ? [{ name }] : []) }, observer);
      }
    },
  };
}

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['performance'] });
  Reflect.deleteProperty(window, 'PerformanceObserver');
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('paint-first boot script', () => {
  it('starts nothing before the server-rendered page is painted, then the scripts in order and the fetches', () => {
    const timing = fakePaintTiming();
    boot();
    expect(started()).toEqual([]);
    expect(preloaded()).toEqual([]);

    timing.paint('first-paint');
    expect(started()).toEqual([]);

    timing.paint('first-contentful-paint');
    expect(started()).toEqual(['/main.1.js', '/extra.2.js']);
    // Inserted scripts are async unless told otherwise; these must keep document order.
    const scripts = /** @type {NodeListOf<HTMLScriptElement>} */ (document.head.querySelectorAll('script[src]'));
    expect([...scripts].every((script) => script.async === false)).toBe(true);
    expect(preloaded()).toEqual(['/remotes.json']);
    const link = document.head.querySelector('link[rel="preload"]');
    expect([link?.getAttribute('as'), link?.getAttribute('crossorigin')]).toEqual(['fetch', 'anonymous']);
  });

  it('starts once only, when the page painted before the script ran and the safety timer fires later', () => {
    fakePaintTiming({ painted: true });
    boot();
    expect(started()).toEqual(['/main.1.js', '/extra.2.js']);
    jest.advanceTimersByTime(5000);
    expect(started()).toEqual(['/main.1.js', '/extra.2.js']);
  });

  it('starts at once when there is no server-rendered page to paint (the page renders in the browser)', () => {
    fakePaintTiming();
    boot({ serverPage: false });
    expect(started()).toEqual(['/main.1.js', '/extra.2.js']);
  });

  it('starts at once in a background tab, which paints nothing until shown', () => {
    fakePaintTiming();
    boot({ visibility: 'hidden' });
    expect(started()).toEqual(['/main.1.js', '/extra.2.js']);
  });

  it('never waits more than two seconds for a paint the browser does not report', () => {
    fakePaintTiming();
    boot();
    jest.advanceTimersByTime(1999);
    expect(started()).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(started()).toEqual(['/main.1.js', '/extra.2.js']);
  });

  it('without paint timing, starts after the next frame has been rendered', () => {
    /** @type {FrameRequestCallback[]} */
    const frames = [];
    jest.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
    boot();
    expect(started()).toEqual([]);
    expect(frames).toHaveLength(1);
    frames.shift()?.(0);
    expect(started()).toEqual([]);
    jest.advanceTimersByTime(0);
    expect(started()).toEqual(['/main.1.js', '/extra.2.js']);
  });

  it('starts each script with the integrity its tag lists for it, with CORS, and none where the tag lists none', () => {
    const first = `sha384-${'a'.repeat(64)}`;
    const second = `sha384-${'b'.repeat(64)}`;
    boot({ serverPage: false, integrity: `${first} ${second}` });
    const scripts = [...document.head.querySelectorAll('script[src]')];
    expect(scripts.map((script) => [script.getAttribute('integrity'), script.getAttribute('crossorigin')])).toEqual([
      [first, 'anonymous'],
      [second, 'anonymous'],
    ]);
    boot({ serverPage: false });
    expect([...document.head.querySelectorAll('script[integrity]')]).toEqual([]);
  });

  it('sets each script URL through its own Trusted Types policy, which passes only the URLs its tag lists', () => {
    /** @type {{ name: string, rules: { createScriptURL: (url: string) => string } }[]} */
    const created = [];
    const trustedTypes = {
      /** @param {string} name @param {{ createScriptURL: (url: string) => string }} rules */
      createPolicy: (name, rules) => (created.push({ name, rules }), rules),
    };
    Object.assign(window, { trustedTypes });
    try {
      boot({ serverPage: false });
      expect(created.map(({ name }) => name)).toEqual(['nativegtm-boot']);
      expect(started()).toEqual(['/main.1.js', '/extra.2.js']);
      const [{ rules }] = /** @type {[(typeof created)[0]]} */ (created);
      expect(() => rules.createScriptURL('https://evil.example/x.js')).toThrow(/Not a script this document lists/);
    } finally {
      Reflect.deleteProperty(window, 'trustedTypes');
    }
  });
});

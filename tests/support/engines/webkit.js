// WebKit through classic WebDriver: Debian's WebKitGTK (webkit2gtk-driver's WebKitWebDriver starting MiniBrowser),
// drawn into a virtual X display (Xvfb), since MiniBrowser has no headless mode. The same engine as Safari, in
// another port; playwright-core drives only its own patched WebKit builds, which cannot be downloaded here.
//
// Classic WebDriver has no console API and no preload scripts: the site is opened through a proxy that adds both
// (scriptProxy.js).
/* global window, document -- functions passed to evaluate run in the page */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { Session } = require('./session');
const { startScriptProxy } = require('./scriptProxy');
const { request, WebDriverSession } = require('./webdriver');
const { locateTool } = require('../systemTools');
const { sleep, stopProcessGroup } = require('./processes');
const { stopProcess } = require('../stopProcess');
const { startXvfb } = require('./xvfb');

// MiniBrowser's toolbar and URL entry keep its GTK window at least 447 px wide; shrunk to nothing, the page's
// viewport can be as narrow as a phone's.
const GTK_CSS = '* { min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; font-size: 1px; }\n';

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * @param {string} program  WebKitWebDriver
 * @param {string} display  the X display MiniBrowser draws into
 * @param {string} scratch  a folder for the browser's home, configuration and caches
 */
async function startDriver(program, display, scratch) {
  const port = await freePort();
  const configHome = path.join(scratch, 'config');
  fs.mkdirSync(path.join(configHome, 'gtk-3.0'), { recursive: true });
  fs.writeFileSync(path.join(configHome, 'gtk-3.0', 'gtk.css'), GTK_CSS);
  const driver = spawn(program, [`--port=${port}`], {
    // Its own process group, so that stopping it stops MiniBrowser and the web and network processes too.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      DISPLAY: display,
      HOME: scratch,
      XDG_CONFIG_HOME: configHome,
      XDG_CACHE_HOME: path.join(scratch, 'cache'),
      XDG_DATA_HOME: path.join(scratch, 'data'),
    },
  });
  let stderr = '';
  /** @type {Error | undefined} */
  let spawnError;
  driver.once('error', (error) => {
    spawnError = error;
  });
  driver.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ready = await request(baseUrl, 'GET', '/status', undefined, 1000).then(
      (status) => /** @type {{ ready?: boolean }} */ (status).ready,
      () => false,
    );
    if (ready) break;
    if (spawnError || driver.exitCode !== null || Date.now() > deadline) {
      await stopProcessGroup(driver.pid);
      await stopProcess(driver);
      throw new Error(`WebKitWebDriver did not start: ${spawnError?.message ?? ''} ${stderr}`);
    }
    await sleep(50);
  }
  return {
    baseUrl,
    output: () => stderr,
    stop: async () => {
      await stopProcessGroup(driver.pid);
      await stopProcess(driver);
    },
  };
}

/**
 * What the sessions of one engine share: the proxies it opened sites through, and the init scripts the current session
 * added.
 * @typedef {{ proxies: () => import('./scriptProxy').ScriptProxy[], initScripts: string[] }} Shared
 */

class WebKitSession extends Session {
  /**
   * @param {import('./session').EngineInfo} engine
   * @param {WebDriverSession} webdriver
   * @param {Shared} shared
   */
  constructor(engine, webdriver, shared) {
    super(engine);
    this.webdriver = webdriver;
    this.shared = shared;
  }

  /**
   * @override
   * @param {string} url
   */
  async goto(url) {
    await this.webdriver.command('POST', '/url', { url });
  }

  /**
   * @override
   * @template A, R
   * @param {(arg: A) => R | Promise<R>} fn
   * @param {A} [arg]
   * @returns {Promise<R>}
   */
  async evaluate(fn, arg) {
    // Every call is asynchronous in the page, so `fn` may return a promise, and its errors come back as errors.
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn})(arguments[0])).then(
        (value) => done({ value: value === undefined ? null : value }),
        (error) => done({ error: String((error && error.stack) || error) }));`;
    const outcome = /** @type {{ value: R, error?: string } | null} */ (
      await this.webdriver.executeAsync(script, [arg === undefined ? null : arg])
    );
    if (outcome?.error) throw new Error(`${this.engine.label}: in the page: ${outcome.error}`);
    return /** @type {R} */ (outcome?.value);
  }

  /**
   * @override
   * @param {string} selector
   * @param {number} index
   */
  async clickAt(selector, index) {
    const element = (await this.webdriver.findAll(selector))[index];
    if (!element) throw new Error(`${this.engine.label}: no ${selector} number ${index + 1}`);
    await this.webdriver.click(element);
  }

  /**
   * @override
   * @param {string} selector
   * @param {string} value
   */
  async select(selector, value) {
    // WebDriver's click on an <option> is how a visitor's choice is made (it fires input and change).
    await this.clickAt(`${selector} option[value=${JSON.stringify(value)}]`, 0);
  }

  /**
   * @override
   * @param {number} width
   * @param {number} height
   */
  async setViewport(width, height) {
    // The window rect includes MiniBrowser's own (shrunk) chrome: measure the viewport and correct for it.
    await this.webdriver.command('POST', '/window/rect', { width, height });
    let inner = await this.settledViewport();
    for (let attempt = 0; attempt < 3 && (inner.width !== width || inner.height !== height); attempt += 1) {
      const rect = /** @type {{ width: number, height: number }} */ (
        await this.webdriver.command('GET', '/window/rect')
      );
      await this.webdriver.command('POST', '/window/rect', {
        width: rect.width + width - inner.width,
        height: rect.height + height - inner.height,
      });
      inner = await this.settledViewport();
    }
    if (inner.width !== width || inner.height !== height) {
      throw new Error(
        `${this.engine.label}: the viewport is ${inner.width}×${inner.height} px, not ${width}×${height}`,
      );
    }
  }

  /** The viewport once a resize has reached the page (the window manager answers before the page has relaid). */
  async settledViewport() {
    const read = () => this.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
    let last = await read();
    for (let check = 0; check < 20; check += 1) {
      await sleep(25);
      const now = await read();
      if (now.width === last.width && now.height === last.height) return now;
      last = now;
    }
    return last;
  }

  /**
   * @override
   * @param {string} file
   * @param {import('./session').ScreenshotOptions} [options]
   */
  async screenshot(file, { fullPage = false } = {}) {
    // WebDriver captures the viewport only: for the whole page, the viewport becomes as tall as the page.
    const viewport = await this.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
    if (!fullPage) {
      fs.writeFileSync(file, await this.viewportPng());
      return;
    }
    try {
      const pageHeight = await this.evaluate(() => document.documentElement.scrollHeight);
      await this.setViewport(viewport.width, Math.max(pageHeight, viewport.height));
      fs.writeFileSync(file, await this.viewportPng());
    } finally {
      await this.setViewport(viewport.width, viewport.height);
    }
  }

  /** @returns {Promise<Buffer>} */
  async viewportPng() {
    const base64 = /** @type {string} */ (await this.webdriver.command('GET', '/screenshot'));
    return Buffer.from(base64, 'base64');
  }

  /** @override */
  async reload() {
    await this.webdriver.command('POST', '/refresh', {});
  }

  /** @override */
  async consoleErrors() {
    // Reports sent by documents already left, then what the current document holds and has not reported yet.
    const entries = this.shared.proxies().flatMap((proxy) => proxy.reported());
    const current = await this.evaluate(() => {
      const hooked = /** @type {Window & { __engineConsoleErrors?: import('./scriptProxy').ConsoleEntry[] }} */ (
        window
      );
      return hooked.__engineConsoleErrors ?? null;
    });
    if (current === null) {
      // Without the proxy's script nothing is recorded, and "no errors" would be a check that cannot fail.
      throw new Error(
        `${this.engine.label}: the console hook is not in this document (opened through engine.origin()?)`,
      );
    }
    const ids = new Set(entries.map((entry) => entry.id));
    return [...entries, ...current.filter((entry) => !ids.has(entry.id))].map((entry) => entry.text);
  }

  /**
   * @override
   * @param {() => void} fn
   */
  async addInitScript(fn) {
    this.shared.initScripts.push(String(fn));
    for (const proxy of this.shared.proxies()) proxy.setInitScripts(this.shared.initScripts);
  }

  /** @override */
  async close() {
    await this.webdriver.quit();
  }
}

/** @returns {Promise<import('./index').Engine>} */
async function launchWebKitEngine() {
  // All three before anything starts: a missing one is named, with its package, before there is anything to clean up.
  const minibrowser = locateTool('MINIBROWSER_PATH');
  const xvfbProgram = locateTool('XVFB_PATH');
  const driverProgram = locateTool('WEBKIT_DRIVER_PATH');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-webkit-'));
  // Called once every process that writes into it has ended (stopProcessGroup); the retries cover the file system.
  const removeScratch = () => fs.rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  let xvfb;
  let driver;
  try {
    xvfb = await startXvfb(xvfbProgram);
    driver = await startDriver(driverProgram, xvfb.display, scratch);
  } catch (error) {
    await xvfb?.stop();
    removeScratch();
    throw error;
  }
  /**
   * One proxy per site origin, shared by the sessions (one at a time: WebKitWebDriver allows one).
   * @type {Map<string, import('./scriptProxy').ScriptProxy>}
   */
  const proxies = new Map();
  /** @type {Shared} */
  const shared = { proxies: () => [...proxies.values()], initScripts: [] };
  /**
   * The WebDriver session whose window is open, if any: quit before the driver stops.
   * @type {WebDriverSession | undefined}
   */
  let open;
  /** @type {import('./session').EngineInfo} */
  const engine = { name: 'webkit', label: 'WebKit (WebKitGTK MiniBrowser)' };
  return Object.assign(engine, {
    /** @param {string} siteOrigin */
    async origin(siteOrigin) {
      let proxy = proxies.get(siteOrigin);
      if (!proxy) {
        proxy = await startScriptProxy(siteOrigin);
        proxy.setInitScripts(shared.initScripts);
        proxies.set(siteOrigin, proxy);
      }
      return proxy.origin;
    },
    /** @param {import('./index').SessionOptions} [options] */
    async newSession({ width = 1280, height = 900, javaScript = true } = {}) {
      // A new session is a new, empty browser: nothing carried over from the previous test.
      shared.initScripts = [];
      for (const proxy of proxies.values()) proxy.clear();
      // Without JavaScript: MiniBrowser's own setting (pages' scripts off; WebDriver's commands still run).
      const args = javaScript ? ['--automation'] : ['--automation', '--enable-javascript=false'];
      const capabilities = {
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: minibrowser, args },
      };
      const webdriver = await WebDriverSession.create(driver.baseUrl, capabilities, 30_000).catch((error) => {
        throw new Error(`${engine.label} did not open a window: ${error.message}\n${driver.output()}`);
      });
      open = webdriver;
      try {
        await webdriver.command('POST', '/timeouts', { pageLoad: 30_000, script: 30_000 });
        engine.label = `WebKit (WebKitGTK ${webdriver.capabilities.browserVersion ?? ''} MiniBrowser)`;
        const session = new WebKitSession(engine, webdriver, shared);
        await session.goto('about:blank');
        await session.setViewport(width, height);
        return session;
      } catch (error) {
        // WebKitWebDriver allows one session: one left open would fail every later test.
        await webdriver.quit().catch(() => undefined);
        throw error;
      }
    },
    async close() {
      await open?.quit().catch(() => undefined);
      await Promise.allSettled([...proxies.values()].map((proxy) => proxy.close()));
      await driver.stop();
      await xvfb.stop();
      removeScratch();
    },
  });
}

module.exports = { launchWebKitEngine };

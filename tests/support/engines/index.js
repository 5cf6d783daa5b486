// The browser engines the integration tests can drive, behind one interface (session.js), so a spec is written once
// and runs in each: Chromium (playwright-core, DevTools protocol), Firefox (puppeteer-core, WebDriver BiDi) and WebKit
// (classic WebDriver, WebKitGTK's MiniBrowser under Xvfb).
//
// TEST_ENGINES (comma-separated, default all three) chooses which: `TEST_ENGINES=webkit npm run test:engines`.
const { launchChromiumEngine } = require('./chromium');
const { launchFirefoxEngine } = require('./firefox');
const { launchWebKitEngine } = require('./webkit');

/** @typedef {'chromium' | 'firefox' | 'webkit'} EngineName */

const launchers = { chromium: launchChromiumEngine, firefox: launchFirefoxEngine, webkit: launchWebKitEngine };

/** @type {EngineName[]} */
const engineNames = ['chromium', 'firefox', 'webkit'];

/**
 * The engines named in a comma-separated list (any case, each once), in its order.
 * @param {string} list
 * @param {string} variable  where the list came from, for the error message
 * @returns {EngineName[]}
 */
function parseEngines(list, variable) {
  const asked = [...new Set(list.split(',').map((name) => name.trim().toLowerCase()))].filter(Boolean);
  const unknown = asked.filter((name) => !engineNames.includes(/** @type {EngineName} */ (name)));
  if (unknown.length > 0) {
    throw new Error(`${variable} names ${unknown.join(', ')}; the engines are ${engineNames.join(', ')}.`);
  }
  if (asked.length === 0) throw new Error(`${variable} names no engine; the engines are ${engineNames.join(', ')}.`);
  return /** @type {EngineName[]} */ (asked);
}

/**
 * The engines this run tests: TEST_ENGINES, or all three.
 * @returns {EngineName[]}
 */
function enginesUnderTest(env = process.env) {
  return env.TEST_ENGINES === undefined ? [...engineNames] : parseEngines(env.TEST_ENGINES, 'TEST_ENGINES');
}

/**
 * @typedef {object} SessionOptions
 * @property {number} [width]  of the viewport, in CSS pixels
 * @property {number} [height]
 * @property {boolean} [javaScript]  false: the pages' own scripts do not run. Only WebKit's sessions honour it (its
 *   browser has a setting for it); Chromium and Firefox always run them.
 */

/**
 * @typedef {object} Engine
 * @property {EngineName} name
 * @property {string} label
 * @property {(siteOrigin: string) => Promise<string>} origin  the origin to open a site at in this engine (WebKit
 *   puts its console and init-script proxy in between)
 * @property {(options?: SessionOptions) => Promise<import('./session').Session>} newSession
 *   a fresh tab with nothing carried over from earlier sessions
 * @property {() => Promise<void>} close
 */

/**
 * Starts the engine's browser.
 * @param {EngineName} name
 * @returns {Promise<Engine>}
 */
function launchEngine(name) {
  const launch = launchers[name];
  if (!launch) throw new Error(`No engine called ${name}; the engines are ${engineNames.join(', ')}.`);
  return launch();
}

module.exports = { enginesUnderTest, parseEngines, launchEngine };

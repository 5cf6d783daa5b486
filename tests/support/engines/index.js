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
 * The engines this run tests, from TEST_ENGINES.
 * @returns {EngineName[]}
 */
function enginesUnderTest(env = process.env) {
  if (!env.TEST_ENGINES) return [...engineNames];
  const asked = env.TEST_ENGINES.split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = asked.filter((name) => !engineNames.includes(/** @type {EngineName} */ (name)));
  if (unknown.length > 0) {
    throw new Error(`TEST_ENGINES names ${unknown.join(', ')}; the engines are ${engineNames.join(', ')}.`);
  }
  return /** @type {EngineName[]} */ (asked);
}

/**
 * @typedef {object} Engine
 * @property {EngineName} name
 * @property {string} label
 * @property {(siteOrigin: string) => Promise<string>} origin  the origin to open a site at in this engine (WebKit
 *   puts its console and init-script proxy in between)
 * @property {(viewport?: { width?: number, height?: number }) => Promise<import('./session').Session>} newSession
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

module.exports = { engineNames, enginesUnderTest, launchEngine };

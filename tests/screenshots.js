#!/usr/bin/env node
// `npm run screenshots`: PNGs of every screen at 375, 768 and 1280 px from the composed site, into screenshots/
// (not committed). Also the mobile menu open, and every screen with JavaScript off (`-nojs`: the server-rendered
// HTML as crawlers and visitors without scripts get it). Then the same screens in Firefox and WebKit at 375 and
// 1280 px (with the menu open at 375; and with JavaScript off), into screenshots/firefox/ and
// screenshots/webkit/ (SCREENSHOT_ENGINES chooses: `SCREENSHOT_ENGINES=webkit npm run screenshots`). Uses the same
// server code as npm start, on TEST_PORT_BASE (4100).
/* global document -- functions passed to evaluate run in the page */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { chromium } = require('playwright-core');
const { startTestSite } = require('./support/testSite');
const { startShellWithRemote } = require('./support/shellWithRemote');
const { locateTool } = require('./support/systemTools');
const { CHROMIUM_ARGS } = require('./support/engines/chromium');
const { launchEngine, parseEngines } = require('./support/engines');

const execFileAsync = promisify(execFile);

const screens = [
  { name: 'candidates', path: '/' },
  { name: 'employers', path: '/employers' },
  { name: 'featured-jobs', path: '/featured-jobs' },
  { name: 'coming-soon', path: '/coming-soon' },
  { name: 'not-found', path: '/no-such-page' },
  // The shell's error screen, reached the way visitors reach it: the page's remote does not answer.
  { name: 'error', path: '/featured-jobs', downRemote: 'jobs-mfe' },
];
const widths = (process.env.SCREENSHOT_WIDTHS || '375,768,1280').split(',').map(Number);
const outDir = path.resolve(__dirname, '..', 'screenshots');

const otherEngines = parseEngines(process.env.SCREENSHOT_ENGINES ?? 'firefox,webkit', 'SCREENSHOT_ENGINES').filter(
  (name) => name !== 'chromium',
);

/** @typedef {import('./support/testSite').TestSite} TestSite */

/** @param {TestSite} site */
async function chromiumScreenshots(site) {
  const browser = await chromium.launch({ executablePath: locateTool('CHROME_PATH'), args: CHROMIUM_ARGS });
  fs.mkdirSync(outDir, { recursive: true });
  try {
    for (const width of widths) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      for (const screen of screens) {
        if (screen.downRemote) {
          await page.route(`http://localhost:${site.ports[screen.downRemote]}/**`, (route) =>
            route.abort('connectionrefused'),
          );
        }
        await page.goto(`http://localhost:${site.ports.shell}${screen.path}`, { waitUntil: 'networkidle' });
        const file = path.join(outDir, `${screen.name}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(file);
        const menu = page.getByRole('button', { name: 'Menu' });
        if (await menu.isVisible().catch(() => false)) {
          await menu.click();
          await page.waitForTimeout(400); // let the menu icon finish its transition
          const menuFile = path.join(outDir, `${screen.name}-${width}-menu.png`);
          await page.screenshot({ path: menuFile });
          console.log(menuFile);
        }
      }
      await page.close();

      const noScript = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
      const plain = await noScript.newPage();
      for (const screen of screens.filter((candidate) => !candidate.downRemote)) {
        await plain.goto(`http://localhost:${site.ports.shell}${screen.path}`, { waitUntil: 'networkidle' });
        const file = path.join(outDir, `${screen.name}-${width}-nojs.png`);
        await plain.screenshot({ path: file, fullPage: true });
        console.log(file);
      }
      await noScript.close();
    }
  } finally {
    await browser.close();
  }
}

/**
 * A copy of the shell whose Featured Jobs remote is where nothing answers: the error screen as visitors meet it, in
 * engines whose driver cannot intercept requests.
 * @param {TestSite} site
 */
function startSiteWithJobsDown(site) {
  // portsFrom always has the shell.
  const port = /** @type {number} */ (site.ports.shell) + 97;
  const manifestUrl = `http://localhost:${port + 1}/mf-manifest.json`;
  return startShellWithRemote({ port, ports: site.ports, remote: 'jobs', manifestUrl });
}

/**
 * @param {import('./support/engines').EngineName} name
 * @param {TestSite} site
 */
async function engineScreenshots(name, site) {
  const engine = await launchEngine(name);
  let broken;
  const dir = path.join(outDir, name);
  fs.mkdirSync(dir, { recursive: true });
  try {
    broken = await startSiteWithJobsDown(site);
    const origins = {
      up: await engine.origin(`http://localhost:${site.ports.shell}`),
      down: await engine.origin(broken.origin),
    };
    for (const width of [375, 1280]) {
      for (const screen of screens) {
        const session = await engine.newSession({ width, height: 900 });
        try {
          await session.goto(`${screen.downRemote ? origins.down : origins.up}${screen.path}`);
          await session.untilRendered();
          const file = path.join(dir, `${screen.name}-${width}.png`);
          await session.screenshot(file, { fullPage: true });
          console.log(file);
          const menu = 'header button[aria-controls]';
          const hasMenu = await session.evaluate((selector) => {
            const button = document.querySelector(selector);
            return button !== null && button.getBoundingClientRect().width > 0;
          }, menu);
          if (hasMenu) {
            await session.click(menu);
            await session.evaluate(() => new Promise((resolve) => setTimeout(resolve, 400)));
            const menuFile = path.join(dir, `${screen.name}-${width}-menu.png`);
            await session.screenshot(menuFile);
            console.log(menuFile);
          }
        } finally {
          await session.close();
        }
      }
    }
    if (name === 'webkit') {
      // Without JavaScript: MiniBrowser's setting turns the pages' scripts off (WebDriver's own commands still run).
      for (const width of [375, 1280]) {
        for (const screen of screens.filter((candidate) => !candidate.downRemote)) {
          const session = await engine.newSession({ width, height: 900, javaScript: false });
          try {
            await session.goto(`${origins.up}${screen.path}`);
            const file = path.join(dir, `${screen.name}-${width}-nojs.png`);
            await session.screenshot(file, { fullPage: true });
            console.log(file);
          } finally {
            await session.close();
          }
        }
      }
    }
  } finally {
    await broken?.stop();
    await engine.close();
  }
}

/**
 * Firefox with JavaScript off (a profile with `javascript.enabled` false), through its own headless screenshot
 * command: its WebDriver session would need scripts to tell when a page is rendered. The viewport only.
 * @param {TestSite} site
 */
async function firefoxNoScriptScreenshots(site) {
  const firefox = locateTool('FIREFOX_PATH');
  const dir = path.join(outDir, 'firefox');
  fs.mkdirSync(dir, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-firefox-nojs-'));
  try {
    fs.writeFileSync(path.join(profile, 'user.js'), 'user_pref("javascript.enabled", false);\n');
    for (const width of [375, 1280]) {
      for (const screen of screens.filter((candidate) => !candidate.downRemote)) {
        const file = path.join(dir, `${screen.name}-${width}-nojs.png`);
        const url = `http://localhost:${site.ports.shell}${screen.path}`;
        const args = ['--headless', '--no-remote', '--profile', profile, `--window-size=${width},900`];
        // Not spawnSync: the site is served by this very process, which must keep answering meanwhile.
        await execFileAsync(firefox, [...args, '--screenshot', file, url], { timeout: 60_000 }).catch((error) => {
          throw new Error(`Firefox could not take ${file}: ${error.message}`);
        });
        if (!fs.existsSync(file)) throw new Error(`Firefox wrote no ${file}`);
        console.log(file);
      }
    }
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function main() {
  const site = await startTestSite();
  try {
    await chromiumScreenshots(site);
    for (const name of otherEngines) await engineScreenshots(name, site);
    if (otherEngines.includes('firefox')) await firefoxNoScriptScreenshots(site);
  } finally {
    await site.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

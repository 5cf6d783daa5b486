#!/usr/bin/env node
// `npm run screenshots`: PNGs of every screen at 375, 768 and 1280 px from the composed site, into screenshots/
// (not committed). Also the mobile menu open, and every screen with JavaScript off (`-nojs`: the server-rendered
// HTML as crawlers and visitors without scripts get it). Uses the same server code as npm start, on TEST_PORT_BASE
// (4100).
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startTestSite } = require('./support/testSite');
const { usualPaths } = require('./support/systemTools');

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

function chromiumPath() {
  const candidates = [process.env.CHROME_PATH, ...usualPaths('CHROME_PATH')];
  const found = candidates.find((candidate) => candidate && fs.existsSync(candidate));
  if (!found) throw new Error('No Chromium found: apt-get install chromium, or set CHROME_PATH.');
  return found;
}

async function main() {
  const site = await startTestSite();
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
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
    await site.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

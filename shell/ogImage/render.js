/*
 * Renders ogImage.html to shell/public/og-image.png, the site's link-preview image.
 * Why: Open Graph / Twitter cards need a raster image (PNG, 1200x630); they ignore SVG and HTML.
 * Run from the repository root after changing ogImage.html, and commit the PNG:
 *   node shell/ogImage/render.js
 * Needs Chromium: CHROME_PATH, or /usr/bin/chromium by default.
 */
const path = require('path');
const { pathToFileURL } = require('url');
const { chromium } = require('playwright-core');

const WIDTH = 1200;
const HEIGHT = 630;
const source = path.join(__dirname, 'ogImage.html');
const output = path.join(__dirname, '..', 'public', 'og-image.png');

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1 });
    await page.goto(pathToFileURL(source).href, { waitUntil: 'load' });
    await page.screenshot({ path: output, type: 'png', clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } });
    console.log(`Wrote ${path.relative(process.cwd(), output)} (${WIDTH}x${HEIGHT})`);
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

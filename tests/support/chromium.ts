import { chromium, type Browser } from 'playwright-core';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { locateTool } = require('./systemTools') as { locateTool: (env: string) => string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { CHROMIUM_ARGS } = require('./engines/chromium') as { CHROMIUM_ARGS: string[] };

/** Debian's Chromium (or CHROME_PATH). Browser downloads are not an option here, so a missing browser is an error. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: locateTool('CHROME_PATH'), args: CHROMIUM_ARGS });
}

/**
 * One Chromium for the calling spec file: launched before its tests, closed after them. Returns a getter, because
 * the browser only exists once beforeAll has run.
 */
export function chromiumPerFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('chromiumPerFile: the browser is only available inside tests and hooks');
    return browser;
  };
}

import { chromium, type Browser } from 'playwright-core';
import { locateTool } from './systemTools';
import { CHROMIUM_ARGS } from './engines/chromium';

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

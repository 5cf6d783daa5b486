import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { usualPaths } = require('./systemTools') as { usualPaths: (env: string) => string[] };

const CANDIDATES = usualPaths('CHROME_PATH');

/** Debian's Chromium (or CHROME_PATH). Browser downloads are not an option here, so a missing browser is an error. */
export function findChromium(): string {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROME_PATH points to ${fromEnv}, which does not exist.`);
    return fromEnv;
  }
  const found = CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      `No Chromium found (looked in ${CANDIDATES.join(', ')}). Install it with \`apt-get install chromium\` ` +
        'or set CHROME_PATH to a Chromium or Chrome binary.',
    );
  }
  return found;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
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

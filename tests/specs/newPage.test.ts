import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { deployables } from '@nativegtm/server/deployables';
import { launchChromium } from '../support/chromium';
import { eventually } from '../support/eventually';
import { rawGet } from '../support/rawGet';
import { scratchCopy } from '../support/scratchCopy';
import { waitForPort } from '../support/waitForPort';
import { collectConsoleErrors, ports as testPorts } from '../support/site';

// `npm run new-page` end to end, in a scratch copy of the repository: generate a page, install, build the shell and
// the new remote, serve the composed site, and open the new route. Nothing else is edited by hand.

// Ports B+260..B+265: see the port plan in tests/support/testSite.js.
const base = testPorts.shell! + 260;
jest.setTimeout(8 * 60_000);

let copy = '';
let removeCopy = () => {};
let site: ChildProcess | undefined;
let browser: Browser | undefined;

const inCopy = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(() => {
  // The repository as a clone would have it, installed (the generator is one of the tools, @nativegtm/tools, which
  // need their packages), plus the builds of the existing packages, which the new page does not change.
  ({ dir: copy, remove: removeCopy } = scratchCopy('new-page'));
  for (const deployable of deployables.filter((d) => d.role === 'remote')) {
    cpSync(join(deployable.dir, 'dist'), join(copy, deployable.name, 'dist'), { recursive: true });
  }
});

afterAll(async () => {
  await browser?.close();
  site?.kill('SIGTERM');
  removeCopy();
});

describe('npm run new-page', () => {
  it('refuses a route that is taken, saying which page has it', () => {
    expect(() => inCopy('node', ['shared/tools/newPage/newPage.js', 'careers', '/employers'])).toThrow(
      /employers-mfe already has that name or route/,
    );
  });

  it('creates a page that type-checks, passes its tests, builds and is served in the composed site', async () => {
    inCopy('npm', ['run', 'new-page', '--', 'customer-stories', '/customer-stories']);
    const registry = readFileSync(join(copy, 'shared/contract/pages.js'), 'utf8');
    expect(registry).toContain("package: 'customer-stories-mfe'");

    inCopy('npx', ['tsc', '-b', 'customer-stories-mfe', 'shell']);
    inCopy('npx', ['eslint', 'customer-stories-mfe', 'shared/contract/pages.js']);
    inCopy('npx', [
      'prettier',
      '--check',
      'customer-stories-mfe',
      'shared/contract/pages.js',
      'tsconfig.json',
      'tests/tsconfig.json',
    ]);
    inCopy('npx', ['jest', '--selectProjects', 'customer-stories-mfe']);
    inCopy('npm', ['run', 'build', '-w', 'shell', '-w', 'customer-stories-mfe']);

    // The copy's own servers, on shifted ports, with a remotes.json for them (as the test site does).
    const script = `
      const { deployables } = require('./shared/server/deployables.js');
      const { startSite } = require('./shared/server/startSite.js');
      const ports = require('./shared/contract/ports.js').portsFrom(${base});
      const remotes = require('./shared/contract/remotesConfig.js').shippedRemotes({ portOf: (page) => ports[page.package] });
      require('node:fs').writeFileSync('remotes.test.json', JSON.stringify(remotes));
      // Field data as npm start keeps it: the shell's collector sends the view a click ends.
      startSite(deployables, {
        ports,
        remotesFile: require('node:path').resolve('remotes.test.json'),
        fieldData: { dir: require('node:path').resolve('field-data.test') },
      });`;
    site = spawn(process.execPath, ['-e', script], { cwd: copy, stdio: 'ignore' });
    const newPort = base + 5; // the fifth page takes the port after the four others
    await Promise.all([waitForPort(base, { timeoutMs: 20_000 }), waitForPort(newPort, { timeoutMs: 20_000 })]);

    // A port that accepts is not a remote that answers within the document server's fragment timeout: on a busy
    // machine the first documents can be the designed fallback (the shell alone), so wait for the composed one.
    const heading = /<h1[^>]*>Customer Stories<\/h1>/;
    const composed = await eventually(
      () => rawGet(base, '/customer-stories'),
      (response) => heading.test(response.body),
      { timeoutMs: 20_000, what: 'the document of /customer-stories' },
    );
    expect(composed.status).toBe(200);
    expect(composed.body).toContain('<title>Customer Stories · NativeGTM</title>');
    expect(String(composed.headers['content-security-policy'])).toContain(`http://localhost:${newPort}`);
    expect((await rawGet(base, '/sitemap.xml')).body).toContain('/customer-stories</loc>');

    browser = await launchChromium();
    const page = await browser.newPage();
    const errors = collectConsoleErrors(page);
    await page.goto(`http://localhost:${base}/customer-stories`);
    await page.waitForFunction(() => {
      const heading = document.querySelector('h1');
      return (
        heading?.textContent === 'Customer Stories' &&
        Object.keys(heading).some((key) => key.startsWith('__reactFiber'))
      );
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Employers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hire Vetted AI-Native GTM Talent' }).waitFor();
    expect(errors).toEqual([]);
  });
});

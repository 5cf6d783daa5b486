import { ensureSystemTools, locateTool, toolsFor, toolsNamed } from '../support/systemTools';
import { enginesUnderTest } from '../support/engines';

// What `npm test` does about the programs it needs (the real install is exercised by CI on a machine without them).
const fake = { name: 'Fakebrowser', debianPackage: 'fakebrowser', env: 'FAKEBROWSER_PATH', paths: ['/nonexistent/fb'] };

describe('the system tools the integration tests need', () => {
  it('finds what is installed and installs nothing', () => {
    const present = { ...fake, paths: [process.execPath] };
    expect(ensureSystemTools({ tools: [present], env: {}, asRoot: () => null, log: () => undefined })).toEqual([]);
  });

  it('stops with the exact command to run when it may not install', () => {
    expect(() => ensureSystemTools({ tools: [fake], env: {}, asRoot: () => null, log: () => undefined })).toThrow(
      /Fakebrowser.*sudo apt-get install -y --no-install-recommends fakebrowser.*FAKEBROWSER_PATH/,
    );
  });

  it('says what needs the programs it installs, or the command to run', () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    expect(() =>
      ensureSystemTools({ tools: [fake], purpose: 'the topology', env: {}, asRoot: () => null, log }),
    ).toThrow(
      /^For the topology, this machine lacks Fakebrowser\. Install with: sudo apt-get install -y --no-install-recommends fakebrowser /,
    );
    expect(lines).toEqual([]);
  });

  it('names a variable that points nowhere rather than installing over it', () => {
    const env = { FAKEBROWSER_PATH: '/nonexistent/elsewhere' };
    expect(() => ensureSystemTools({ tools: [fake], env, asRoot: () => [], log: () => undefined })).toThrow(
      'FAKEBROWSER_PATH points to /nonexistent/elsewhere, which does not exist.',
    );
  });
});

describe('the programs each browser engine needs', () => {
  const packagesFor = (engines: string[]) =>
    toolsFor(engines).map((tool: { debianPackage: string }) => tool.debianPackage);

  it('are looked for only when that engine is under test', () => {
    // Every run: the browser, the servers, and what the slow link between a node and the database needs.
    const everyRun = [
      'chromium',
      'nginx',
      'libnginx-mod-http-brotli-static',
      'postgresql',
      'haproxy',
      'varnish',
      'iproute2',
      'iptables',
    ];
    expect(packagesFor(['chromium'])).toEqual(everyRun);
    expect(packagesFor(['chromium', 'firefox', 'webkit'])).toEqual([
      ...everyRun,
      'firefox-esr',
      'webkit2gtk-driver',
      'libwebkit2gtk-4.1-0',
      'xvfb',
    ]);
  });

  it('are chosen by name for a command that needs only some, and an unknown name is an error', () => {
    const packages = toolsNamed(['PostgreSQL', 'nginx', "nginx's brotli_static module", 'HAProxy', 'Varnish']).map(
      (tool: { debianPackage: string }) => tool.debianPackage,
    );
    expect(packages).toEqual(['postgresql', 'nginx', 'libnginx-mod-http-brotli-static', 'haproxy', 'varnish']);
    expect(() => toolsNamed(['Varnish', 'Squid'])).toThrow('No system tool is called Squid.');
  });

  it('name the Debian package when a program is missing', () => {
    expect(() => locateTool('FAKEBROWSER_PATH', {}, [fake])).toThrow(
      'No Fakebrowser found (looked in /nonexistent/fb). It comes with the Debian package fakebrowser: ' +
        'sudo apt-get install -y --no-install-recommends fakebrowser, or set FAKEBROWSER_PATH.',
    );
    const missing = { FIREFOX_PATH: '/nonexistent/firefox' };
    expect(() => locateTool('FIREFOX_PATH', missing)).toThrow(
      'FIREFOX_PATH points to /nonexistent/firefox, which does not exist.',
    );
  });

  it('TEST_ENGINES chooses the engines, and an unknown name is an error that lists them', () => {
    expect(enginesUnderTest({})).toEqual(['chromium', 'firefox', 'webkit']);
    expect(enginesUnderTest({ TEST_ENGINES: 'WebKit, firefox' })).toEqual(['webkit', 'firefox']);
    expect(enginesUnderTest({ TEST_ENGINES: 'webkit,webkit' })).toEqual(['webkit']);
    expect(() => enginesUnderTest({ TEST_ENGINES: 'safari' })).toThrow(
      'TEST_ENGINES names safari; the engines are chromium, firefox, webkit.',
    );
    expect(() => enginesUnderTest({ TEST_ENGINES: ' , ' })).toThrow('TEST_ENGINES names no engine');
  });
});

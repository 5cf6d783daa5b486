/** @jest-environment node */
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { parseArgs } = require('./command');
const { defaultStoreDir } = require('../releases/storeLayout');

describe('npm run nginx:config, its options', () => {
  it('reads every option', () => {
    expect(
      parseArgs([
        '--remotes',
        'remotes.json',
        '--origin',
        'https://nativegtm.example',
        '--prefix',
        '/tmp/nginx',
        '--port-base',
        '8000',
        '--out',
        'nginx.conf',
        '--fragment-timeout-ms',
        '300',
        '--releases',
        '/srv/releases',
      ]),
    ).toEqual({
      remotesFile: path.resolve('remotes.json'),
      origin: 'https://nativegtm.example',
      prefix: '/tmp/nginx',
      portBase: 8000,
      out: 'nginx.conf',
      fragmentTimeoutMs: 300,
      releasesDir: '/srv/releases',
    });
  });

  it('defaults the port base, the prefix and the release store', () => {
    expect(parseArgs([])).toMatchObject({
      portBase: 3000,
      prefix: '/var/lib/nativegtm-nginx',
      releasesDir: defaultStoreDir(),
    });
  });

  it.each([
    [['--port', '3000'], /unknown option "--port"/],
    [['--out'], /--out needs a value/],
    [['--out', '--origin', 'x'], /--out needs a value/],
    [['--port-base', 'abc'], /positive whole number/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(message);
  });

  it.each([[['--bogus', 'x']], [['--out']]])('exits 2 with the usage on %j, writing nothing', (argv) => {
    const result = spawnSync(process.execPath, [path.join(__dirname, 'command.js'), ...argv], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^nginx:config: .*\nusage: npm run nginx:config -- /);
  });
});

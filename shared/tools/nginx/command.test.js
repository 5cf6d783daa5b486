/** @jest-environment node */
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { parseArgs } = require('./command');
const { storeDir } = require('@nativegtm/server/storeDir');

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
        '--documents',
        '/srv/documents',
      ]),
    ).toEqual({
      remotesFile: path.resolve('remotes.json'),
      origin: 'https://nativegtm.example',
      prefix: '/tmp/nginx',
      portBase: 8000,
      out: 'nginx.conf',
      fragmentTimeoutMs: 300,
      releasesDir: '/srv/releases',
      documentsDir: '/srv/documents',
    });
  });

  it('defaults the port base, the prefix, the release store and the documents folder (in the prefix)', () => {
    expect(parseArgs([])).toMatchObject({
      portBase: 3000,
      prefix: '/var/lib/nativegtm-nginx',
      releasesDir: storeDir(),
      documentsDir: '/var/lib/nativegtm-nginx/documents',
    });
    expect(parseArgs(['--prefix', '/tmp/n'])).toMatchObject({ documentsDir: '/tmp/n/documents' });
  });

  it.each([
    [['--port', '3000'], /^Unknown option '--port'$/],
    [['--out'], /Option '--out <value>' argument missing/],
    [['--out', '--origin', 'x'], /^Option '--out' argument is ambiguous$/],
    [['--port-base', 'abc'], /--port-base must be a whole number from 1 to 65535, not "abc"/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(message);
  });

  it('takes the origin and the store from the environment when no option gives them', () => {
    expect(parseArgs([], { SITE_ORIGIN: 'https://nativegtm.example', RELEASES_DIR: '/srv/r' })).toMatchObject({
      origin: 'https://nativegtm.example',
      releasesDir: '/srv/r',
    });
  });

  it.each([[['--bogus', 'x']], [['--out']]])('exits 2 with the usage on %j, writing nothing', (argv) => {
    const result = spawnSync(process.execPath, [path.join(__dirname, 'command.js'), ...argv], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*\nusage: npm run nginx:config -- /);
  });

  it('prints its usage on --help and exits 0', () => {
    const result = spawnSync(process.execPath, [path.join(__dirname, 'command.js'), '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: npm run nginx:config -- /);
  });

  it('exits 1 with one line per bad variable, writing nothing', () => {
    const result = spawnSync(process.execPath, [path.join(__dirname, 'command.js')], {
      encoding: 'utf8',
      env: { ...process.env, SITE_ORIGIN: 'ftp://x', PORT_BASE: 'abc' },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Invalid environment:\n {2}PORT_BASE="abc": .*\n {2}SITE_ORIGIN="ftp:\/\/x": .*\n$/);
  });
});

/** @jest-environment node */
const { spawnSync } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');
const { ConfigError, serverConfig } = require('./config');

/**
 * The problems a ConfigError lists for `env`, or none.
 * @param {NodeJS.ProcessEnv} env
 */
function problems(env) {
  try {
    serverConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

describe('the store on PostgreSQL', () => {
  const database = 'postgresql://site:hunter2hunter2@db:5432/site';
  const secret = 'a'.repeat(32);

  it('takes DATABASE_URL and RELEASES_BUCKET together, with FIELD_DATA_SECRET', () => {
    const config = serverConfig({
      DATABASE_URL: database,
      RELEASES_BUCKET: 's3://releases/site',
      FIELD_DATA_SECRET: secret,
    });
    expect(config).toMatchObject({ DATABASE_URL: database, RELEASES_BUCKET: 's3://releases/site' });
  });

  it.each([
    [{ DATABASE_URL: database, FIELD_DATA_SECRET: secret }, /^ {2}RELEASES_BUCKET: must be set with DATABASE_URL/],
    [
      { RELEASES_BUCKET: 's3://releases', FIELD_DATA_SECRET: secret },
      /^ {2}DATABASE_URL: must be set with RELEASES_BUCKET/,
    ],
    [
      { DATABASE_URL: database, RELEASES_BUCKET: 's3://releases' },
      /^ {2}FIELD_DATA_SECRET: must be set with DATABASE_URL/,
    ],
  ])('refuses one without the other, in one line: %o', (env, line) => {
    const found = problems(env);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(line);
  });

  it('refuses a URL that is not one, without showing it (it may hold a password)', () => {
    const found = problems({ DATABASE_URL: 'mysql://site:hunter2hunter2@db/site', RELEASES_BUCKET: 's3://releases' });
    expect(found).toEqual([expect.stringMatching(/^ {2}DATABASE_URL=\(not shown\): must be a postgresql:\/\/ URL/)]);
    expect(found.join('\n')).not.toContain('hunter2');
  });

  it.each(['releases', 's3://', 's3://Bad_Bucket/x', 's3://releases/../x'])('refuses the bucket %s', (bucket) => {
    expect(problems({ DATABASE_URL: database, RELEASES_BUCKET: bucket, FIELD_DATA_SECRET: secret })).toEqual([
      expect.stringMatching(/^ {2}RELEASES_BUCKET=.*: must /),
    ]);
  });
});

describe('the servers’ configuration', () => {
  it('has the defaults npm start runs with', () => {
    expect(serverConfig({})).toEqual({
      PORT_BASE: 3000,
      HOST: undefined,
      WEB_CONCURRENCY: os.availableParallelism(),
      LOG_LEVEL: 'info',
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: 9464,
      SITE_ORIGIN: 'http://localhost:3000',
      REMOTES_FILE: undefined,
      RELEASES_DIR: undefined,
      DATABASE_URL: undefined,
      RELEASES_BUCKET: undefined,
      FIELD_DATA_DIR: undefined,
      FIELD_DATA_SECRET: undefined,
      FIELD_DATA_MAX_HOUR: 256 * 1024 * 1024,
      FIELD_DATA_MAX: 2 * 1024 * 1024 * 1024,
      FIELD_DATA_BUFFER: 10_000,
      FIELD_DATA_RETENTION_DAYS: 7,
      RUM_SAMPLE_RATE: 1,
      COLLECTOR_PORT: 9465,
      OVERRIDE_ORIGINS: [
        { protocol: 'http:', hostname: 'localhost', port: '*' },
        { protocol: 'http:', hostname: '127.0.0.1', port: '*' },
        { protocol: 'http:', hostname: '[::1]', port: '*' },
      ],
      TRUSTED_PROXIES: 'loopback',
      FRAGMENT_TIMEOUT_MS: undefined,
    });
  });

  it('reads the origins overrides may come from, or none when off', () => {
    expect(serverConfig({ OVERRIDE_ORIGINS: 'https://dev.example.com:8443' }).OVERRIDE_ORIGINS).toEqual([
      { protocol: 'https:', hostname: 'dev.example.com', port: '8443' },
    ]);
    expect(serverConfig({ OVERRIDE_ORIGINS: 'off' }).OVERRIDE_ORIGINS).toEqual([]);
  });

  it("reads the field-data store's budget in bytes, or with a unit", () => {
    expect(serverConfig({ FIELD_DATA_MAX_HOUR: '64KB', FIELD_DATA_MAX: '3000000' })).toMatchObject({
      FIELD_DATA_MAX_HOUR: 65536,
      FIELD_DATA_MAX: 3000000,
    });
    expect(serverConfig({ FIELD_DATA_MAX: '1.5gb' }).FIELD_DATA_MAX).toBe(1.5 * 1024 ** 3);
  });

  it('reads the proxies whose X-Forwarded-For is believed', () => {
    expect(serverConfig({ TRUSTED_PROXIES: '10.0.0.0/8, loopback' }).TRUSTED_PROXIES).toBe('10.0.0.0/8, loopback');
  });

  it('reads a sample rate from 0 to 1', () => {
    expect(serverConfig({ RUM_SAMPLE_RATE: '0' }).RUM_SAMPLE_RATE).toBe(0);
    expect(serverConfig({ RUM_SAMPLE_RATE: '0.25' }).RUM_SAMPLE_RATE).toBe(0.25);
  });

  it('reads every variable, and takes an empty one as unset', () => {
    expect(
      serverConfig({
        PORT_BASE: '8000',
        WEB_CONCURRENCY: '3',
        LOG_LEVEL: 'warn',
        METRICS_PORT: '0',
        SITE_ORIGIN: 'https://nativegtm.example/',
        FRAGMENT_TIMEOUT_MS: '250',
        RELEASES_DIR: '/srv/releases',
        HOST: '',
      }),
    ).toMatchObject({
      PORT_BASE: 8000,
      WEB_CONCURRENCY: 3,
      LOG_LEVEL: 'warn',
      METRICS_PORT: 0,
      SITE_ORIGIN: 'https://nativegtm.example',
      FRAGMENT_TIMEOUT_MS: 250,
      RELEASES_DIR: '/srv/releases',
      HOST: undefined,
    });
  });

  it.each([
    ['PORT_BASE', 'abc'],
    ['PORT_BASE', '65534'],
    ['PORT_BASE', '0'],
    ['METRICS_PORT', '70000'],
    ['METRICS_PORT', '12.5'],
    ['WEB_CONCURRENCY', '0'],
    ['WEB_CONCURRENCY', 'many'],
    ['LOG_LEVEL', 'loud'],
    ['SITE_ORIGIN', 'https://nativegtm.example/path'],
    ['SITE_ORIGIN', 'nativegtm.example'],
    ['FRAGMENT_TIMEOUT_MS', '-5'],
    ['RUM_SAMPLE_RATE', '1.5'],
    ['RUM_SAMPLE_RATE', 'half'],
    ['COLLECTOR_PORT', '-1'],
    ['OVERRIDE_ORIGINS', 'localhost:3103'],
    ['FIELD_DATA_MAX_HOUR', '-5MB'],
    ['FIELD_DATA_MAX_HOUR', '100'],
    ['FIELD_DATA_MAX', 'lots'],
    ['FIELD_DATA_MAX', '2 GB of it'],
    ['TRUSTED_PROXIES', 'cdn.example'],
    ['TRUSTED_PROXIES', '10.0.0.0/33'],
  ])('refuses %s=%s, naming the variable and the value', (name, value) => {
    expect(problems({ [name]: value })).toEqual([expect.stringMatching(new RegExp(`^ {2}${name}="${value}": .+`))]);
  });

  it.each([
    ['s'.repeat(31), 31],
    ['é'.repeat(15), 30],
  ])('refuses a FIELD_DATA_SECRET shorter than 32 bytes without showing it', (value, bytes) => {
    expect(problems({ FIELD_DATA_SECRET: value })).toEqual([
      `  FIELD_DATA_SECRET=(not shown): must be at least 32 bytes, not ${bytes}`,
    ]);
  });

  it.each(['serve', 'collect'])('stops %s before it starts when FIELD_DATA_SECRET is too short', (command) => {
    const result = spawnSync(process.execPath, [path.join(__dirname, 'commands', `${command}.js`)], {
      env: { ...process.env, FIELD_DATA_SECRET: 'too short' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'Invalid environment:\n  FIELD_DATA_SECRET=(not shown): must be at least 32 bytes, not 9\n',
    );
  });

  it('takes a FIELD_DATA_SECRET of 32 bytes', () => {
    expect(serverConfig({ FIELD_DATA_SECRET: 'é'.repeat(16) }).FIELD_DATA_SECRET).toBe('é'.repeat(16));
  });

  it('names every bad variable at once, one line each', () => {
    expect(problems({ PORT_BASE: 'abc', METRICS_PORT: '70000', LOG_LEVEL: 'info' })).toEqual([
      '  PORT_BASE="abc": must be a port from 1 to 65531 (the remotes take the 4 ports after it)',
      '  METRICS_PORT="70000": must be a port from 0 to 65535',
    ]);
  });
});

const {
  LOOPBACK_ORIGINS,
  canonicalOrigin,
  liveReloadOrigin,
  overrideAllowed,
  overridePath,
  parseOverride,
  parseOverrideOrigins,
} = require('./overrides');

const remotes = ['candidates', 'jobs'];

describe('parseOverrideOrigins', () => {
  test('the loopback default allows a dev server on this machine at any port, and nothing else', () => {
    const loopback = parseOverrideOrigins(LOOPBACK_ORIGINS);
    for (const origin of ['http://localhost:3103', 'http://127.0.0.1:9', 'http://[::1]:4000', 'http://localhost']) {
      expect([origin, overrideAllowed(loopback, origin)]).toEqual([origin, true]);
    }
    for (const origin of [
      'https://localhost:3103',
      'http://10.0.0.5:3103',
      'http://localhost.evil.example:3103',
      'http://127.0.0.2:3103',
      'http://example.com',
    ]) {
      expect([origin, overrideAllowed(loopback, origin)]).toEqual([origin, false]);
    }
  });

  test('an exact port allows that port only; "off" allows nothing', () => {
    const one = parseOverrideOrigins(' https://dev.example.com:8443 , http://10.0.0.5:3103 ');
    expect(overrideAllowed(one, 'https://dev.example.com:8443')).toBe(true);
    expect(overrideAllowed(one, 'https://dev.example.com:8444')).toBe(false);
    expect(overrideAllowed(one, 'http://10.0.0.5:3103')).toBe(true);
    expect(parseOverrideOrigins('off')).toEqual([]);
  });

  test.each(['localhost:3103', 'ftp://localhost:21', 'http://localhost:3103/path', 'http://user@localhost', '*'])(
    'refuses %p, naming it',
    (entry) => {
      expect(() => parseOverrideOrigins(`http://localhost:*,${entry}`)).toThrow(`"${entry}"`);
    },
  );
});

describe('parseOverride', () => {
  test('reads `<remote>@<origin>` for a known remote and a canonical origin', () => {
    expect(parseOverride('jobs@http://localhost:3103', remotes)).toEqual({
      remote: 'jobs',
      origin: 'http://localhost:3103',
    });
    expect(parseOverride('jobs@http://[::1]:3103', remotes)).toEqual({ remote: 'jobs', origin: 'http://[::1]:3103' });
  });

  test.each([
    undefined,
    '',
    'jobs',
    '@http://localhost:3103',
    'nope@http://localhost:3103',
    'jobs@http://localhost:3103/',
    'jobs@http://localhost:3103/x',
    'jobs@HTTP://LOCALHOST:3103',
    'jobs@javascript:alert(1)',
    'jobs@http://localhost:80',
  ])('ignores %p', (value) => {
    expect(parseOverride(value, remotes)).toBeUndefined();
  });
});

test('the start path carries the origin encoded, and the live-reload origin is the same host and port', () => {
  expect(overridePath('jobs', 'http://localhost:3103')).toBe('/_override/jobs?origin=http%3A%2F%2Flocalhost%3A3103');
  expect(liveReloadOrigin('http://localhost:3103')).toBe('ws://localhost:3103');
  expect(liveReloadOrigin('https://dev.example.com')).toBe('wss://dev.example.com');
  expect(canonicalOrigin('http://localhost:3103')).toBe('http://localhost:3103');
  for (const junk of ['http://localhost:3103/', 'http://localhost:80', 'http://localhost:0', 'http://LOCALHOST:1']) {
    expect(canonicalOrigin(junk)).toBeUndefined();
  }
  expect(parseOverrideOrigins('https://dev.example.com/')).toEqual([
    { protocol: 'https:', hostname: 'dev.example.com', port: '' },
  ]);
});

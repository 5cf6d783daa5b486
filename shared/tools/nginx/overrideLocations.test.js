// The override maps' regular expressions, run as nginx runs a map (first match wins, captures in the value), over what
// browsers and the built-in server would send. (The same syntax means the same in PCRE and JavaScript here: named
// groups, classes, alternation.) Real nginx runs them in tests/specs/devOverride.test.ts.
const {
  LOOPBACK_ORIGINS,
  canonicalOrigin,
  overrideAllowed,
  overridePath,
  parseOverride,
  parseOverrideOrigins,
} = require('@nativegtm/contract/overrides');
const { overrideMaps } = require('./overrideLocations');

const plans = [
  { remote: 'jobs', route: '/featured-jobs', base: new URL('http://127.0.0.1:3003/') },
  { remote: 'candidates', route: '/', base: new URL('http://127.0.0.1:3001/') },
];

/**
 * One map of the text, as a function of its input.
 * @param {string} text the maps
 * @param {string} variable the map's result, e.g. "$nativegtm_override_remote"
 */
function mapOf(text, variable) {
  const body = new RegExp(`map \\S+ \\${variable} \\{\\n([\\s\\S]*?)\\n\\}`).exec(text)?.[1];
  if (body === undefined) throw new Error(`no map for ${variable}`);
  const lines = body
    .trim()
    .split('\n')
    .map((line) => /^\s*("(?:[^"\\]|\\.)*"|\S+)\s+("(?:[^"\\]|\\.)*"|[^;]+);$/.exec(line))
    .map((found) => {
      if (!found) throw new Error(`unreadable map line in ${body}`);
      /** A word as nginx reads it: quotes taken off, `\\` read as one backslash. */
      const word = (/** @type {string} */ text) =>
        text.startsWith('"') ? text.slice(1, -1).replace(/\\(["\\])/g, '$1') : text;
      return { key: word(found[1] ?? ''), value: word(found[2] ?? '') };
    });
  return (/** @type {string} */ input) => {
    for (const { key, value } of lines) {
      if (key === 'default') return value;
      const match = key.startsWith('~') ? new RegExp(key.slice(1)).exec(input) : key === input ? [] : null;
      // A capture's variable is filled in; any other variable is nginx's to expand, left as written.
      if (match) return value.replace(/\$(\w+)/g, (whole, name) => /** @type {any} */ (match).groups?.[name] ?? whole);
    }
    return '';
  };
}

describe('the override maps', () => {
  const maps = overrideMaps(plans, parseOverrideOrigins(LOOPBACK_ORIGINS));
  const asked = mapOf(maps, '$nativegtm_override_asked');
  const remote = mapOf(maps, '$nativegtm_override_remote');
  const origin = mapOf(maps, '$nativegtm_override_origin');

  test('read the origin a start asks for, encoded as the dev command encodes it or not, as the servers write it', () => {
    for (const wanted of ['http://localhost:3103', 'http://127.0.0.1:9', 'http://[::1]:4000', 'http://localhost']) {
      const query = new URLSearchParams(overridePath('jobs', wanted).split('?')[1]);
      const raw = /** @type {string} */ (overridePath('jobs', wanted).split('origin=')[1]);
      expect([asked(raw), asked(/** @type {string} */ (query.get('origin')))]).toEqual([wanted, wanted]);
    }
  });

  test.each([
    'http%3A%2F%2F10.0.0.5%3A3103',
    'https%3A%2F%2Flocalhost%3A3103',
    'http%3A%2F%2Flocalhost.evil.example%3A3103',
    'http%3A%2F%2Flocalhost%3A3103%2Fpath',
    'http%3A%2F%2Flocalhost%3A0',
    'javascript%3Aalert(1)',
    '',
  ])('refuse %p', (query) => {
    expect(asked(query)).toBe('');
  });

  test("read a cookie's remote and origin only for an allowed origin and a known remote", () => {
    expect([remote('jobs@http://localhost:3103'), origin('jobs@http://localhost:3103')]).toEqual([
      'jobs',
      'http://localhost:3103',
    ]);
    for (const junk of [
      'jobs@http://10.0.0.5:3103',
      'payments@http://localhost:3103',
      'jobs@http://localhost:3103/x',
    ]) {
      expect([junk, remote(junk), origin(junk)]).toEqual([junk, '', '']);
    }
  });

  test('widen the policy for an override only', () => {
    expect(mapOf(maps, '$nativegtm_override_ws')('http://localhost:3103')).toBe(' ws://localhost:3103');
    expect(mapOf(maps, '$nativegtm_override_ws')('')).toBe('');
  });

  // The built-in server's rule (@nativegtm/contract/overrides) and nginx's expressions, on the same inputs.
  const candidates = [
    'http://localhost:3103',
    'http://localhost',
    'http://localhost:1',
    'http://localhost:65535',
    'http://localhost:65536',
    'http://localhost:99999',
    'http://localhost:80',
    'http://localhost:0',
    'http://localhost:03103',
    'http://localhost:3103/',
    'http://LOCALHOST:3103',
    'HTTP://localhost:3103',
    'https://localhost:3103',
    'http://user@localhost:3103',
    'http://localhost:3103#x',
    'http://127.0.0.1:8443',
    'http://127.0.0.1.evil.example:8443',
    'http://[::1]:4000',
    'http://[::1]',
    'http://[::2]:4000',
    'http://10.0.0.5:3103',
  ];
  const loopback = parseOverrideOrigins(LOOPBACK_ORIGINS);
  /** @param {string} origin */
  const builtIn = (origin) => {
    const canonical = canonicalOrigin(origin);
    return canonical !== undefined && overrideAllowed(loopback, canonical);
  };

  test.each(candidates)('agree with the built-in server on %p, in a start and in a cookie', (candidate) => {
    const accepted = builtIn(candidate);
    expect([asked(encodeURIComponent(candidate)) !== '', asked(candidate) !== '']).toEqual([accepted, accepted]);
    const cookieValue = `jobs@${candidate}`;
    expect(parseOverride(cookieValue, ['jobs']) !== undefined && builtIn(candidate)).toBe(accepted);
    expect([remote(cookieValue) !== '', origin(cookieValue) !== '']).toEqual([accepted, accepted]);
  });

  test('take nothing when overrides are off', () => {
    const off = overrideMaps(plans, []);
    expect(mapOf(off, '$nativegtm_override_remote')('jobs@http://localhost:3103')).toBe('');
    expect(mapOf(off, '$nativegtm_override_asked')('http%3A%2F%2Flocalhost%3A3103')).toBe('');
  });
});

const fc = require('fast-check');
const {
  INTEGRITY_VALUE,
  IntegrityListError,
  MAX_INTEGRITY_ENTRIES,
  REFUSED_INTEGRITY,
  fragmentIntegrityFor,
  fragmentIntegrityOf,
  integrityListFor,
  needsIntegrity,
  parseIntegrityList,
} = require('./integrity');

const VALUE = `sha384-${'q'.repeat(63)}/`;

describe('which files of a build need an integrity', () => {
  it('is every script and stylesheet, the federation manifest and the page manifest, not what no browser loads', () => {
    const files = [
      'remoteEntry.js',
      'mf-manifest.json',
      '262.0123456789.js',
      'styles.0123456789.css',
      'nested/chunk.js',
      'mf-manifest-stats.json',
      'index.html',
      'ssr/head.html',
      'ssr/manifest.json',
      'main.js.map',
      'main.js.gz',
      'main.js.br',
      '262.0123456789.js.LICENSE.txt',
      'og-image.png',
      'integrity.json',
    ];
    expect(files.filter(needsIntegrity)).toEqual([
      'remoteEntry.js',
      'mf-manifest.json',
      '262.0123456789.js',
      'styles.0123456789.css',
      'nested/chunk.js',
      'ssr/manifest.json',
    ]);
  });

  it("leaves the other server-rendered files to the page manifest's own list", () => {
    const files = ['ssr/manifest.json', 'ssr/head.html', 'ssr/body/all.html', 'ssr/body/all.html.gz', 'main.js'];
    expect(Object.keys(fragmentIntegrityFor(files, () => 'x'.repeat(64)))).toEqual([
      'ssr/body/all.html',
      'ssr/head.html',
    ]);
  });

  it('lists them sorted, each with the digest the caller computed', () => {
    const list = integrityListFor(['b.js', 'index.html', 'a.css'], (file) =>
      `${file.replace(/\W/g, '')}`.padEnd(64, 'x'),
    );
    expect(list).toEqual({ 'a.css': `sha384-acss${'x'.repeat(60)}`, 'b.js': `sha384-bjs${'x'.repeat(61)}` });
  });
});

describe('an integrity list', () => {
  it('maps each file to its sha384 integrity', () => {
    const list = parseIntegrityList(JSON.stringify({ 'remoteEntry.js': VALUE }));
    expect({ ...list }).toEqual({ 'remoteEntry.js': VALUE });
    expect(INTEGRITY_VALUE.test(REFUSED_INTEGRITY)).toBe(true);
  });

  it('has no prototype: a name it lacks finds nothing', () => {
    const list = parseIntegrityList('{}');
    expect(list['constructor']).toBeUndefined();
    expect(parseIntegrityList('{"__proto__": "x"}'.replace('"x"', JSON.stringify(VALUE)))['__proto__']).toBe(VALUE);
  });

  it.each([
    ['not JSON', '{', 'integrity.json is not JSON'],
    ['an array', '[]', 'integrity.json must map each file to its integrity'],
    ['null', 'null', 'integrity.json must map each file to its integrity'],
    ['another algorithm', JSON.stringify({ 'a.js': `sha256-${'q'.repeat(43)}=` }), 'a.js has no sha384 integrity'],
    ['two values', JSON.stringify({ 'a.js': `${VALUE} ${VALUE}` }), 'a.js has no sha384 integrity'],
    ['an empty value', JSON.stringify({ 'a.js': 'sha384-' }), 'a.js has no sha384 integrity'],
    ['a number', JSON.stringify({ 'a.js': 1 }), 'a.js has no sha384 integrity'],
    ['a path climbing out', JSON.stringify({ '../a.js': VALUE }), 'names a path outside the build: ../a.js'],
    ['an absolute path', JSON.stringify({ '/etc/a.js': VALUE }), 'names a path outside the build: /etc/a.js'],
    ['a backslash', JSON.stringify({ 'a\\\\b.js': VALUE }), 'names a path outside the build'],
    ['an empty name', JSON.stringify({ '': VALUE }), 'names a path outside the build'],
  ])('is refused in one line when it is %s', (_what, text, message) => {
    expect(() => parseIntegrityList(text)).toThrow(IntegrityListError);
    expect(() => parseIntegrityList(text)).toThrow(message);
  });

  it('is refused unread past the entries a release can hold', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_INTEGRITY_ENTRIES + 1 }, (_, i) => [`${i}.js`, VALUE]));
    expect(() => parseIntegrityList(JSON.stringify(many))).toThrow(`lists more than ${MAX_INTEGRITY_ENTRIES} files`);
  });

  it('whatever its text, is refused with IntegrityListError or gives only well-formed entries', () => {
    const entry = fc.tuple(
      fc.oneof(fc.constantFrom('a.js', '../x', '__proto__', 'constructor', ''), fc.string()),
      fc.oneof(fc.constant(VALUE), fc.string(), fc.jsonValue()),
    );
    const text = fc.oneof(
      fc.array(entry, { maxLength: 6 }).map((entries) => JSON.stringify(Object.fromEntries(entries))),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.string(),
    );
    fc.assert(
      fc.property(text, (candidate) => {
        let list;
        try {
          list = parseIntegrityList(candidate);
        } catch (error) {
          return error instanceof IntegrityListError;
        }
        return Object.entries(list).every(
          ([file, value]) => !file.split('/').includes('..') && INTEGRITY_VALUE.test(value),
        );
      }),
      { numRuns: 2000 },
    );
  });
});

describe("a page manifest's list of its server-rendered files", () => {
  it('names each file but the manifest itself, without a prototype', () => {
    const list = fragmentIntegrityOf({ integrity: { 'ssr/head.html': VALUE, 'ssr/body/all.html': VALUE } });
    expect({ ...list }).toEqual({ 'ssr/head.html': VALUE, 'ssr/body/all.html': VALUE });
    expect(list['constructor']).toBeUndefined();
  });

  it.each([
    ['missing', {}, 'lists no integrity of the server-rendered files'],
    ['an array', { integrity: [] }, 'must map each file to its integrity'],
    ['naming a file outside ssr/', { integrity: { 'remoteEntry.js': VALUE } }, 'may not list: remoteEntry.js'],
    ['naming itself', { integrity: { 'ssr/manifest.json': VALUE } }, 'may not list: ssr/manifest.json'],
    ['climbing out', { integrity: { 'ssr/../a.js': VALUE } }, 'names a path outside the build: ssr/../a.js'],
    ['with another algorithm', { integrity: { 'ssr/head.html': 'sha256-x' } }, 'has no sha384 integrity'],
  ])('is refused in one line when it is %s', (_what, manifest, message) => {
    expect(() => fragmentIntegrityOf(manifest)).toThrow(IntegrityListError);
    expect(() => fragmentIntegrityOf(manifest)).toThrow(message);
  });
});

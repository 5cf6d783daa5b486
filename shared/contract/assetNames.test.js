/** @jest-environment node */
const { FILE_EXTENSION, HASHED_ASSET } = require('./assetNames');

describe('asset names', () => {
  it.each(['/main.0123456789.js', '/styles.abcdef0123.css', '/__federation_expose_Page.0a1b2c3d4e.js'])(
    'reads %p as content-hashed',
    (file) => expect(HASHED_ASSET.test(file)).toBe(true),
  );

  it.each(['/main.js', '/remoteEntry.js', '/mf-manifest.json', '/main.0123456789.js.map', '/x.012345678.js'])(
    'reads %p as revalidated',
    (file) => expect(HASHED_ASSET.test(file)).toBe(false),
  );

  it.each([
    ['/robots.txt', true],
    ['/og-image.PNG', true],
    ['/employers', false],
    ['/featured-jobs/', false],
    ['/v1.2/', false],
  ])('reads %p as a file: %p', (pathname, file) => expect(FILE_EXTENSION.test(pathname)).toBe(file));
});

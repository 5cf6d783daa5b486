/** @jest-environment node */
const fc = require('fast-check');
const {
  NOT_FOUND_CACHE_CONTROL,
  PAGE_CACHE_CONTROL,
  documentCacheControl,
  documentEtag,
  isFresh,
} = require('./documentCaching');

describe('documentCacheControl', () => {
  it('lets shared caches keep pages briefly and serve them stale while refetching; browsers revalidate', () => {
    expect(documentCacheControl(200)).toBe(PAGE_CACHE_CONTROL);
    expect(PAGE_CACHE_CONTROL).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
  });

  it('keeps the 404 document briefly and never anything else', () => {
    expect(documentCacheControl(404)).toBe(NOT_FOUND_CACHE_CONTROL);
    expect(NOT_FOUND_CACHE_CONTROL).not.toContain('stale-while-revalidate');
    for (const status of [500, 502, 503, 400]) expect(documentCacheControl(status)).toBe('no-store');
  });
});

describe('documentEtag', () => {
  it('is a weak validator that changes with any change of the text', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(documentEtag(a)).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
        expect(documentEtag(a) === documentEtag(b)).toBe(a === b);
      }),
    );
  });
});

describe('isFresh', () => {
  const etag = documentEtag('<html>');
  it.each([
    [etag, true],
    [etag.replace('W/', ''), true],
    [`"other", ${etag}`, true],
    ['*', true],
    ['"other"', false],
    ['', false],
    [undefined, false],
    [`${etag.slice(0, -2)}"`, false],
  ])('If-None-Match %s: %s', (header, expected) => {
    expect(isFresh(header === undefined ? {} : { 'if-none-match': header }, etag)).toBe(expected);
  });

  it("reads If-None-Match alone: a request's Cache-Control is for caches, not for the origin", () => {
    expect(isFresh({ 'if-none-match': etag, 'cache-control': 'no-cache' }, etag)).toBe(true);
  });
});

/** @jest-environment node */
const fc = require('fast-check');
const {
  NOT_FOUND_CACHE_CONTROL,
  PAGE_CACHE_CONTROL,
  documentCacheControl,
  documentEtag,
  encodedEtag,
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
  it('is a strong validator of the text and its encoding that changes with any change of either', () => {
    const encodings = fc.constantFrom(undefined, /** @type {const} */ ('br'), /** @type {const} */ ('gzip'));
    fc.assert(
      fc.property(fc.string(), fc.string(), encodings, encodings, (a, b, first, second) => {
        const tagA = encodedEtag(documentEtag(a), first);
        expect(tagA).toMatch(/^"[0-9a-f]+-[A-Za-z0-9+/]{27}(-br|-gzip)?"$/);
        expect(tagA === encodedEtag(documentEtag(b), second)).toBe(a === b && first === second);
      }),
    );
  });
});

describe('isFresh', () => {
  const etag = encodedEtag(documentEtag('<html>'), 'br');
  it.each([
    [etag, true],
    [`W/${etag}`, true],
    [encodedEtag(documentEtag('<html>'), 'gzip'), false],
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

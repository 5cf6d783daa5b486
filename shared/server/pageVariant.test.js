const { allVariants, assertValidQuery, variantKey } = require('./pageVariant');

const query = { function: ['product-management', 'account-executive'], location: ['austin-tx'], sort: ['date-posted'] };

describe('variantKey', () => {
  it('is "index" for a page that reads no query', () => {
    expect(variantKey(undefined, '?function=anything')).toBe('index');
    expect(variantKey({}, '')).toBe('index');
  });

  it('keeps a listed value given once, per parameter, in declaration order', () => {
    expect(variantKey(query, '?location=austin-tx&function=account-executive')).toBe('account-executive--austin-tx--_');
    expect(variantKey(query, '?utm_source=x&sort=date-posted')).toBe('_--_--date-posted');
  });

  it.each([
    ['unknown value', '?function=ceo'],
    ['repeated, even with the same value', '?function=account-executive&function=account-executive'],
    ['empty', '?function='],
    ['a label instead of a slug', '?function=Account%20Executive'],
    ['markup', '?function=%3Cscript%3E'],
    ['garbled percent-encoding', '?function=%E0%A4%A'],
    ['path traversal', '?function=../../etc/passwd'],
  ])('turns %s into the default', (_case, search) => {
    expect(variantKey(query, search)).toBe('_--_--_');
  });

  it('decodes the query as the browser does', () => {
    expect(variantKey(query, '?function=account%2Dexecutive')).toBe('account-executive--_--_');
    expect(variantKey(query, new URLSearchParams('function=product-management'))).toBe('product-management--_--_');
  });
});

describe('allVariants', () => {
  it('lists every combination once, each with a query that asks for it', () => {
    const variants = allVariants(query);
    expect(variants).toHaveLength(3 * 2 * 2);
    expect(new Set(variants.map((variant) => variant.key)).size).toBe(variants.length);
    for (const { key, search } of variants) expect(variantKey(query, search)).toBe(key);
    expect(variants[0]).toEqual({ key: '_--_--_', search: '' });
  });

  it('is one variant for a page without query parameters', () => {
    expect(allVariants(undefined)).toEqual([{ key: 'index', search: '' }]);
  });
});

describe('assertValidQuery', () => {
  it('accepts slugs only, since keys become file names and nginx patterns', () => {
    expect(() => assertValidQuery(query)).not.toThrow();
    expect(() => assertValidQuery({ function: ['a|b'] })).toThrow(/not a slug/);
    expect(() => assertValidQuery({ 'bad name': ['a'] })).toThrow(/not a slug/);
    expect(() => assertValidQuery({ function: ['a--b'] })).toThrow(/not a slug/);
    expect(() => assertValidQuery({ function: [] })).toThrow(/no values/);
  });
});

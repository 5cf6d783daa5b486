const { allVariants, assertValidQuery, serverVariantKey, variantKey } = require('./pageVariant');

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

describe('serverVariantKey', () => {
  it('is "index" for a page that reads no query, whatever the query', () => {
    expect(serverVariantKey(undefined, '?function=%41')).toBe('index');
  });

  it.each([
    ['listed values', 'location=austin-tx&function=account-executive', 'account-executive--austin-tx--_'],
    ['a leading "?"', '?sort=date-posted&utm_source=a%20b', '_--_--date-posted'],
    ['a repeat without a value', 'function=account-executive&function', '_--_--_'],
    ['a repeat without "="', 'function&function=account-executive', '_--_--_'],
    [
      'a longer name that starts with the same letters',
      'functions=x&function=account-executive',
      'account-executive--_--_',
    ],
    ['a value followed by more', 'function=account-executive=1', '_--_--_'],
    ['"+" for a space', 'function=account+executive', '_--_--_'],
    ['empty segments', '&&function=account-executive&&', 'account-executive--_--_'],
  ])('reads %s as the decoded query does', (_case, raw, key) => {
    expect(serverVariantKey(query, raw)).toBe(key);
    expect(variantKey(query, raw)).toBe(key);
  });

  it.each([
    ['an encoded value', 'function=account%2Dexecutive'],
    ['an encoded name', 'f%75nction=account-executive'],
    ['an encoded letter in lower-case hex', 'sort=date%2dposted'],
    ['an encoded name among others', 'location=austin-tx&%66unction=account-executive'],
  ])('cannot tell %s without decoding', (_case, raw) => {
    expect(serverVariantKey(query, raw)).toBeNull();
  });

  it.each([
    ['encoded markup', 'function=%3Cscript%3E&sort=date-posted', '_--_--date-posted'],
    ['an encoded name that cannot be a slug', 'utm%5Fsource=x&function=account-executive', 'account-executive--_--_'],
    ['an encoded space in an unlisted value', 'function=account%20executive', '_--_--_'],
  ])('tells %s: it decodes to no slug', (_case, raw, key) => {
    expect(serverVariantKey(query, raw)).toBe(key);
    expect(variantKey(query, raw)).toBe(key);
  });

  /**
   * The rule's own statement, written without regular expressions: some name, or some listed parameter's value, has
   * percent-encoding and decodes to a slug.
   */
  /** @param {string} raw */
  function onlyDecodingTells(raw) {
    /** @param {string} text */
    const decodesToSlug = (text) => {
      try {
        return text.includes('%') && /^[a-z0-9-]+$/.test(decodeURIComponent(text));
      } catch {
        return false;
      }
    };
    return raw.split('&').some((segment) => {
      const at = segment.indexOf('=');
      const name = at === -1 ? segment : segment.slice(0, at);
      const value = at === -1 ? undefined : segment.slice(at + 1);
      return decodesToSlug(name) || (Object.hasOwn(query, name) && value !== undefined && decodesToSlug(value));
    });
  }

  it('agrees with the decoded rule on every generated query, and says it cannot tell exactly when only decoding can', () => {
    // Seeded, so a failure is reproducible: the query that disagreed is in the message.
    let seed = 7;
    /** @param {number} n */
    const random = (n) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const names = [
      ...['function', 'location', 'sort', 'functions', 'f%75nction', 'so%72t', 'sort+', 'utm_source', 'utm%5Fsource'],
      ...['', 'x=y', 'function%', 'functio%6E', 'functio%6e', '%46unction', 'loc%61tion', 'x%2Dy'],
    ];
    const values = [
      'product-management',
      'account-executive',
      'austin-tx',
      'date-posted',
      'ceo',
      '',
      'a+b',
      'account%2Dexecutive',
      'date-posted=1',
      '%3Cscript%3E',
      'austin-tx%',
      'd%61te-posted',
      'a%2',
      '%E0%A4%A',
      'account%20executive',
    ];
    const told = { decided: 0, undecidable: 0 };
    for (let i = 0; i < 5000; i += 1) {
      const segments = Array.from({ length: 1 + random(5) }, () => {
        const name = names[random(names.length)];
        const form = random(4);
        return form === 0 ? name : `${name}=${values[random(values.length)]}`;
      });
      const raw = segments.join(random(5) === 0 ? '&&' : '&');
      const key = serverVariantKey(query, raw);
      expect({ raw, undecidable: key === null }).toEqual({ raw, undecidable: onlyDecodingTells(raw) });
      if (key !== null) expect({ raw, key }).toEqual({ raw, key: variantKey(query, raw) });
      told[key === null ? 'undecidable' : 'decided'] += 1;
    }
    // Both kinds were generated, in numbers.
    expect(Math.min(told.decided, told.undecidable)).toBeGreaterThan(500);
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

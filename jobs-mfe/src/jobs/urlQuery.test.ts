import { defaultFilters, type JobFilters } from './filters';
import { jobFunctions, jobLocations, slugify } from './options';
import { filtersFromQuery, queryWithFilters } from './urlQuery';

const read = (query: string) => filtersFromQuery(new URLSearchParams(query));
const write = (filters: JobFilters, query = '') => queryWithFilters(new URLSearchParams(query), filters).toString();

describe('slugs', () => {
  it('are the option labels in lower case with hyphens', () => {
    expect(jobFunctions.map(slugify)).toEqual([
      'product-management',
      'product-marketing',
      'account-executive',
      'consumer-marketing',
    ]);
    expect(jobLocations.map(slugify)).toEqual([
      'us-remote',
      'san-francisco-ca',
      'new-york-ny',
      'los-angeles-ca',
      'austin-tx',
    ]);
  });
});

describe('filtersFromQuery', () => {
  it('reads the documented example', () => {
    expect(read('?function=product-marketing&location=austin-tx')).toEqual({
      jobFunction: 'Product Marketing',
      location: 'Austin, TX',
      sort: 'Date Posted',
    });
  });

  it('reads nothing as the defaults', () => {
    expect(read('')).toEqual(defaultFilters);
    expect(read('?utm_source=newsletter')).toEqual(defaultFilters);
  });

  it.each([
    ['markup', '?function=<script>alert(1)</script>&location=<img src=x>'],
    ['garbled percent-encoding', '?function=%E0%A4%A&location=%'],
    ['a repeated parameter', '?function=product-marketing&function=account-executive'],
    ['the same value twice', '?location=austin-tx&location=austin-tx'],
    ['a label instead of a slug', '?function=Product%20Marketing&location=Austin,%20TX'],
    ['another case', '?function=Product-Marketing&location=AUSTIN-TX'],
    ['empty values', '?function=&location=&sort='],
    ['an unknown sort', '?sort=salary'],
    ['prototype keys', '?function=constructor&location=__proto__&sort=toString'],
    ['a huge value', `?function=${'a'.repeat(100_000)}`],
  ])('falls back to All for %s', (_case, query) => {
    expect(read(query)).toEqual(defaultFilters);
  });

  it('keeps a valid filter when only the other one is junk', () => {
    expect(read('?function=account-executive&location=mars')).toEqual({
      ...defaultFilters,
      jobFunction: 'Account Executive',
    });
  });
});

describe('queryWithFilters', () => {
  it('writes slugs and leaves defaults out', () => {
    expect(write({ ...defaultFilters, jobFunction: 'Product Marketing', location: 'Austin, TX' })).toBe(
      'function=product-marketing&location=austin-tx',
    );
    expect(write({ ...defaultFilters, location: 'US (Remote)' })).toBe('location=us-remote');
    expect(write(defaultFilters)).toBe('');
  });

  it('removes a filter set back to All, replaces repeated values and keeps parameters that are not ours', () => {
    expect(write(defaultFilters, 'utm_source=newsletter&function=account-executive&function=x&sort=date-posted')).toBe(
      'utm_source=newsletter',
    );
    expect(write({ ...defaultFilters, jobFunction: 'Consumer Marketing' }, 'function=x&function=y&ref=a')).toBe(
      'function=consumer-marketing&ref=a',
    );
  });

  it('round-trips every combination', () => {
    for (const jobFunction of [null, ...jobFunctions]) {
      for (const location of [null, ...jobLocations]) {
        const filters: JobFilters = { ...defaultFilters, jobFunction, location };
        expect(read(write(filters))).toEqual(filters);
      }
    }
  });
});

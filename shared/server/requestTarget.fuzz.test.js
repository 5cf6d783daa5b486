// Generated request targets, thousands a run: the reading of a request line's target must never throw, never read a
// host name out of a path, and leave the query exactly as sent (the variant rule reads it raw).
const fc = require('fast-check');
const { requestTarget } = require('./requestTarget');

/** The pieces a hostile or broken client puts in a target. */
const piece = fc.constantFrom(
  '/',
  '//',
  '\\',
  '.',
  '..',
  '%',
  '%2e',
  '%2E%2e',
  '%2F',
  '%5C',
  '%00',
  '%ZZ',
  '%c3%a9',
  '%ff',
  '?',
  '&',
  '=',
  '#',
  ':',
  '@',
  'employers',
  'featured-jobs',
  'http:',
  'a',
  'é',
  '\u0000',
  ' ',
  '\t',
  '\u2028',
  '\ud800',
);
const target = fc.oneof(
  fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);
const runs = { numRuns: 3000 };

describe('reading a request target, over generated targets', () => {
  it('never throws, and always gives a path that starts with "/"', () => {
    fc.assert(
      fc.property(target, (text) => {
        const { pathname, search } = requestTarget(text);
        return pathname.startsWith('/') && (search === '' || search.startsWith('?'));
      }),
      runs,
    );
  });

  it('keeps the query of an origin-form target exactly as sent', () => {
    fc.assert(
      fc.property(target, (text) => {
        const origin = `/${text}`;
        const at = origin.indexOf('?');
        return requestTarget(origin).search === (at === -1 ? '' : origin.slice(at));
      }),
      runs,
    );
  });

  it('never reads a host name out of a path: leading slashes and backslashes stay in the path', () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
    const lead = fc.array(fc.constantFrom('/', '\\'), { minLength: 1, maxLength: 4 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(lead, segment, (slashes, name) => {
        const { pathname } = requestTarget(`/${slashes}${name}`);
        return pathname.endsWith(name) && pathname.startsWith('/') && !pathname.startsWith('//');
      }),
      runs,
    );
  });
});

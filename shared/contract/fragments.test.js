// Which SSI directives a page's server-rendered files may hold: the servers run SSI over them on the site's origin.
const fc = require('fast-check');
const { REMOTE_BASE, foreignDirectives } = require('./fragments');

describe('the SSI directives of a fragment its build does not write', () => {
  it("are none in a head whose only directives are the build's stylesheet base", () => {
    const head = `<title>Jobs</title><link rel="stylesheet" href="${REMOTE_BASE}a.css" /><link href="${REMOTE_BASE}b.css" />`;
    expect(foreignDirectives(head, 'head')).toEqual([]);
  });

  it.each([
    ['an echo of a cookie', '<!--# echo var="cookie_nativegtm_session" -->', 'head'],
    ['an include of the field-data token', '<!--#include virtual="/_field-data/token?c=canary" -->', 'body'],
    ['a set of a variable', '<!--# set var="nativegtm_remote_base" value="https://evil.example/" -->', 'head'],
    ['the stylesheet base, in the page HTML', REMOTE_BASE, 'body'],
    ['a directive left open', '<!--# echo var="http_cookie" ', 'body'],
  ])('include %s', (_, directive, part) => {
    const text = `<main>${directive}</main>`;
    const expected = directive.includes('-->') ? directive : `${directive}</main>`;
    expect(foreignDirectives(text, /** @type {'head' | 'body'} */ (part))).toEqual([expected]);
  });

  it('are found wherever they are, and nothing is found in text without one', () => {
    // Text that holds no directive, even where the two parts meet, and that no directive's end runs into.
    const pair = fc
      .tuple(fc.string(), fc.string())
      .filter(([before, after]) => !`${before}${after}`.includes('<!--#') && !after.startsWith('-->'));
    fc.assert(
      fc.property(pair, ([before, after]) => {
        expect(foreignDirectives(`${before}${after}`, 'body')).toEqual([]);
        expect(foreignDirectives(`${before}<!--# echo var="x" -->${after}`, 'body')).toEqual([
          '<!--# echo var="x" -->',
        ]);
      }),
    );
  });
});

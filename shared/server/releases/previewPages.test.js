/** @jest-environment node */
const { previewPage, previewPageTexts, shellStylesheets } = require('./previewPages');

describe("the shell's stylesheets, as its template links them", () => {
  const INTEGRITY = `sha384-${'s'.repeat(63)}+`;
  it('are read from link tags, quoted or not, with their integrity', () => {
    const template =
      `<link rel=icon href=/favicon.svg><link rel=stylesheet href=/styles.0123456789.css integrity=${INTEGRITY}>` +
      `<link href="/more.css" rel="stylesheet" integrity="${INTEGRITY}" crossorigin="anonymous">`;
    expect(shellStylesheets(template)).toEqual([
      { href: '/styles.0123456789.css', integrity: INTEGRITY },
      { href: '/more.css', integrity: INTEGRITY },
    ]);
  });

  it.each([
    '<link rel=stylesheet href=/styles.css>',
    '<link rel=stylesheet href=/styles.css integrity=sha256-abc>',
    '<link rel=stylesheet href=/styles.css integrity="sha384-x onload=alert(1)">',
  ])('never one without a well-formed integrity: %s', (template) => {
    expect(shellStylesheets(template)).toEqual([]);
  });

  it.each([
    '<link rel=stylesheet href=//elsewhere.example/x.css>',
    '<link rel=stylesheet href=https://elsewhere.example/x.css>',
    '<link rel=stylesheet href="/x.css?a=<script>">',
    '<link rel=stylesheet href="/x.css&quot;onload=&quot;">',
    '<link rel=stylesheet href="javascript:alert(1)">',
  ])('never one that is not a plain path of the site: %s', (template) => {
    expect(shellStylesheets(template.replace('>', ` integrity=sha384-${'s'.repeat(64)}>`))).toEqual([]);
  });
});

describe('a preview page', () => {
  it('escapes what it names', () => {
    const texts = previewPageTexts({
      remote: '<b>',
      id: '"x"',
      shortId: '"x"',
      action: '/a"b',
      route: '/r"',
    });
    const html = previewPage(texts.ask, []);
    expect(html).not.toContain('<b>');
    expect(html).toContain('action="/a&quot;b"');
    expect(html).toContain('href="/r&quot;"');
  });
});

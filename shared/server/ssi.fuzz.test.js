// Generated templates and include answers: the built-in server's SSI must compose exactly what nginx would for the
// directives it supports, leave everything else as text, and refuse a malformed template with an SSI error only.
const fc = require('fast-check');
const { compose, parseTemplate } = require('./ssi');
const { escapeHtml } = require('@nativegtm/contract/fragments');

/** Text that holds no directive, but may hold what looks close to one. */
const text = fc
  .oneof(
    fc.string({ unit: 'binary', maxLength: 30 }).filter((value) => !value.includes('<!--#')),
    fc.constantFrom('<!-- # include -->', '<!--', '-->', '<!--#', '<!--#include virtual=x -->', '<!--# nope -->'),
  )
  .filter((value) => parseTemplateIsText(value));
const word = fc.stringMatching(/^[a-z]{1,8}$/);

/** @param {string} value */
function parseTemplateIsText(value) {
  try {
    const { parts } = parseTemplate(value);
    return parts.every((part) => 'text' in part);
  } catch {
    return false;
  }
}

/**
 * A template as parts, with what composing it must give: includes answer their path (or '' for paths that end in
 * "/empty", which then print their stub block), echoes print their variable escaped.
 */
const template = fc
  .array(
    fc.oneof(
      text.map((value) => ({ source: value, expected: value })),
      fc.tuple(word, fc.boolean(), text).map(([name, empty, stub]) => ({
        source: `<!--# block name="${name}" -->${stub}<!--# endblock --><!--# include virtual="/${name}/$page${empty ? '/empty' : ''}" stub="${name}" -->`,
        expected: empty ? stub : `[/${name}/jobs]`,
      })),
      word.map((name) => ({
        source: `<!--# echo var="${name}" -->`,
        expected: escapeHtml(name === 'page' ? 'jobs' : ''),
      })),
    ),
    { maxLength: 8 },
  )
  .map((parts) => ({
    source: parts.map((part) => part.source).join(''),
    expected: parts.map((part) => part.expected).join(''),
  }));

/** @param {string} virtual */
const resolve = async (virtual) => (virtual.endsWith('/empty') ? '' : `[${virtual}]`);

describe('SSI, over generated templates', () => {
  it('composes includes, stubs and echoes as nginx does, and leaves all other text as it is', async () => {
    await fc.assert(
      fc.asyncProperty(template, async ({ source, expected }) => {
        expect(await compose(parseTemplate(source), { page: 'jobs' }, resolve)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads any text as a template or refuses it with an SSI error, never another exception', () => {
    const directive = fc.constantFrom(
      '<!--# block name="a" -->',
      '<!--# endblock -->',
      '<!--# include virtual="/x" stub="a" -->',
      '<!--# echo var="a" -->',
      '<!--# include -->',
      '<!--# echo -->',
    );
    const source = fc.array(fc.oneof(directive, text), { maxLength: 10 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(source, (html) => {
        try {
          parseTemplate(html);
          return true;
        } catch (error) {
          return error instanceof Error && error.message.startsWith('SSI:');
        }
      }),
      { numRuns: 3000 },
    );
  });
});

const { compose, parseTemplate } = require('./ssi');

const template = parseTemplate(
  '<head><!--# block name="fallback" --><title>Site</title><!--# endblock -->' +
    '<!--# include virtual="/head/$page" stub="fallback" --></head>' +
    '<body><!--# include virtual="/body/$page?$args" --><a href="<!--# echo var="base" -->x"></a></body>',
);

describe('the SSI subset', () => {
  it('substitutes variables into includes and prints a block where an include answered nothing', async () => {
    /** @type {string[]} */
    const asked = [];
    const html = await compose(template, { page: 'jobs', args: 'a=1', base: 'http://r/?a&b' }, async (virtual) => {
      asked.push(virtual);
      return virtual.startsWith('/body') ? '<main>Jobs</main>' : '';
    });
    expect(asked.sort()).toEqual(['/body/jobs?a=1', '/head/jobs']);
    expect(html).toBe(
      '<head><title>Site</title></head><body><main>Jobs</main><a href="http://r/?a&amp;b x"></a></body>'.replace(
        ' x',
        'x',
      ),
    );
  });

  it('prints blocks only where a stub asks for them, and echoes a missing variable as nothing', async () => {
    const html = await compose(template, {}, async () => '<meta>');
    expect(html).toBe('<head><meta></head><body><meta><a href="x"></a></body>');
  });

  it('prints the block of that name defined before each include, as nginx reads a template in one pass', async () => {
    const redefined = parseTemplate(
      '<!--# include virtual="/a" stub="s" -->' +
        '<!--# block name="s" -->first<!--# endblock --><!--# include virtual="/b" stub="s" -->' +
        '<!--# block name="s" -->second<!--# endblock --><!--# include virtual="/c" stub="s" -->',
    );
    expect(await compose(redefined, {})).toBe('firstsecond');
  });

  it('rejects templates it would compose wrongly', () => {
    expect(() => parseTemplate('<!--# block name="a" --><!--# block name="b" -->')).toThrow(/nested/);
    expect(() => parseTemplate('<!--# endblock -->')).toThrow(/without block/);
    expect(() => parseTemplate('<!--# block name="a" -->text')).toThrow(/not closed/);
  });
});

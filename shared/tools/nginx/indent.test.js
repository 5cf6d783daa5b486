/** @jest-environment node */
const { block, indent } = require('./indent');

describe('indentation', () => {
  it('indents every non-empty line, leaving blank lines blank', () => {
    expect(indent('a;\n\nb {\n    c;\n}', 2)).toBe('        a;\n\n        b {\n            c;\n        }');
  });

  it('writes nested blocks, leaving out what is not a line', () => {
    expect(block('server', ['listen 80;', false, block('location /', ['return 404;']), undefined])).toBe(
      'server {\n    listen 80;\n    location / {\n        return 404;\n    }\n}',
    );
  });
});

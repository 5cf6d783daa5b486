/** @jest-environment node */
const { composePath, composeParts, parseComposePath, NOT_FOUND_SCREEN } = require('./composePaths');

describe('compose paths', () => {
  it.each(Object.values(composeParts))('reads back what it writes for %s', (part) => {
    expect(parseComposePath(composePath(part, 'jobs'))).toEqual({ part, screen: 'jobs' });
    expect(parseComposePath(`${composePath(part, NOT_FOUND_SCREEN)}?function=sales`)).toEqual({
      part,
      screen: NOT_FOUND_SCREEN,
    });
  });

  it.each(['/_compose/empty', '/_compose/page-head', '/_compose/other/jobs', '/employers', '/_compose/page-head/a/b'])(
    'reads %p as no include of a document',
    (virtual) => {
      expect(parseComposePath(virtual)).toBeUndefined();
    },
  );
});

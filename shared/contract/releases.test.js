const { parsePreviewNotice, previewPath } = require('./releases');

const ID = '0123456789abcdef';

describe('a preview link', () => {
  it('names the remote and the release, and the mark of one whose gate failed', () => {
    expect(previewPath('jobs', ID)).toBe(`/_preview/jobs/${ID}`);
    expect(previewPath('jobs', ID, 'a'.repeat(32))).toBe(`/_preview/jobs/${ID}/${'a'.repeat(32)}`);
  });
});

describe('the preview notice', () => {
  it('names the release, and whether its gate failed', () => {
    expect(parsePreviewNotice(`jobs.${ID}`, ['jobs'])).toEqual({ remote: 'jobs', id: ID, failed: false });
    expect(parsePreviewNotice(`jobs.${ID}.failed`, ['jobs'])).toEqual({ remote: 'jobs', id: ID, failed: true });
  });

  it.each([undefined, '', '.failed', `jobs.${ID}.passed`, `jobs.${ID}.failed.failed`, `nobody.${ID}.failed`])(
    'says nothing for %j',
    (value) => {
      expect(parsePreviewNotice(value, ['jobs'])).toBeUndefined();
    },
  );
});

/** @jest-environment node */
const { CHOICE_HEADERS, choiceFromHeaders } = require('./nginxChoice');

const names = ['candidates', 'jobs', 'comingSoon'];
const ID = '0123456789abcdef';

describe('whom nginx says a /remotes.json request is for', () => {
  it('is everyone without the personal header, whatever else came', () => {
    expect(choiceFromHeaders({ [CHOICE_HEADERS.release('jobs')]: `releases/${ID}/` }, names)).toBeUndefined();
  });

  it("is a canary's or a preview's visitor: each remote's release folder nginx chose", () => {
    const choice = choiceFromHeaders(
      { [CHOICE_HEADERS.personal]: '1', [CHOICE_HEADERS.release('jobs')]: `releases/${ID}/` },
      names,
    );
    expect(choice).toEqual({
      chosen: [{ remote: 'jobs', id: ID }],
      override: undefined,
      headers: { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' },
    });
  });

  it('reads a remote whose name has capitals, as Node gives header names', () => {
    const choice = choiceFromHeaders(
      { [CHOICE_HEADERS.personal]: '1', 'x-nativegtm-release-comingsoon': `releases/${ID}/` },
      names,
    );
    expect(choice).toMatchObject({ chosen: [{ remote: 'comingSoon', id: ID }] });
  });

  it("is a canary's control side: personal, with nothing chosen", () => {
    expect(choiceFromHeaders({ [CHOICE_HEADERS.personal]: '1' }, names)).toMatchObject({ chosen: [] });
  });

  it('is an overriding browser: its remote from the dev server, never also from a release', () => {
    const choice = choiceFromHeaders(
      {
        [CHOICE_HEADERS.personal]: '1',
        [CHOICE_HEADERS.overrideRemote]: 'jobs',
        [CHOICE_HEADERS.overrideOrigin]: 'http://localhost:3103',
        [CHOICE_HEADERS.release('jobs')]: `releases/${ID}/`,
        [CHOICE_HEADERS.release('candidates')]: `releases/${ID}/`,
      },
      names,
    );
    expect(choice).toMatchObject({
      chosen: [{ remote: 'candidates', id: ID }],
      override: { remote: 'jobs', origin: 'http://localhost:3103' },
    });
  });

  it.each([
    ['a release folder that is not one', { [CHOICE_HEADERS.release('jobs')]: 'releases/../../etc/' }],
    ['an id of the wrong length', { [CHOICE_HEADERS.release('jobs')]: 'releases/0123/' }],
    ['a folder with more after it', { [CHOICE_HEADERS.release('jobs')]: `releases/${ID}/x/` }],
    ['a remote the site does not have', { [CHOICE_HEADERS.release('admin')]: `releases/${ID}/` }],
    // Node joins a custom header sent twice with a comma.
    ['a header twice', { [CHOICE_HEADERS.release('jobs')]: `releases/${ID}/, releases/${ID}/` }],
    [
      'an override origin with a path',
      { [CHOICE_HEADERS.overrideRemote]: 'jobs', [CHOICE_HEADERS.overrideOrigin]: 'http://localhost:3103/x' },
    ],
    [
      'an override origin of another scheme',
      { [CHOICE_HEADERS.overrideRemote]: 'jobs', [CHOICE_HEADERS.overrideOrigin]: 'javascript:alert(1)' },
    ],
    [
      'an override of an unknown remote',
      { [CHOICE_HEADERS.overrideRemote]: 'x', [CHOICE_HEADERS.overrideOrigin]: 'http://a' },
    ],
  ])('takes nothing from %s', (_name, headers) => {
    expect(choiceFromHeaders({ [CHOICE_HEADERS.personal]: '1', ...headers }, names)).toMatchObject({
      chosen: [],
      override: undefined,
    });
  });
});

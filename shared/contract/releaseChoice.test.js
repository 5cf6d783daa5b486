const { cohortOf, inCanaries, releaseSource } = require('./releaseChoice');

const remotes = ['candidates', 'employers', 'jobs'];

describe('which release of a remote a request gets', () => {
  it('takes an override, then a preview, then the canary side, then live', () => {
    expect(releaseSource('jobs', { override: 'jobs', preview: 'jobs', side: 'canary' })).toBe('override');
    expect(releaseSource('jobs', { preview: 'jobs', side: 'canary' })).toBe('preview');
    expect(releaseSource('jobs', { side: 'canary' })).toBe('canary');
    expect(releaseSource('jobs', { side: 'control' })).toBe('live');
    expect(releaseSource('jobs', {})).toBe('live');
  });

  it("leaves the other remotes of an overriding browser as they would be, and a previewing browser's live", () => {
    expect(releaseSource('jobs', { override: 'employers', side: 'canary' })).toBe('canary');
    expect(releaseSource('jobs', { override: 'employers', preview: 'jobs' })).toBe('preview');
    expect(releaseSource('jobs', { preview: 'employers', side: 'canary' })).toBe('live');
    expect(inCanaries({ preview: 'employers' })).toBe(false);
    expect(inCanaries({})).toBe(true);
  });
});

describe('whom a document is for', () => {
  const sides = /** @type {const} */ ({ jobs: 'canary', employers: 'control' });
  it("names the side of the page's own remote, else the first remote's the visitor is on a side of", () => {
    expect(cohortOf({ sides }, 'employers', remotes)).toBe('control:employers');
    expect(cohortOf({ sides }, 'candidates', remotes)).toBe('control:employers');
    expect(cohortOf({ sides: { jobs: 'canary' } }, undefined, remotes)).toBe('canary:jobs');
  });

  it('says override or preview before any side, and nothing for a shared document', () => {
    expect(cohortOf({ override: 'jobs', preview: 'jobs', sides }, 'jobs', remotes)).toBe('override');
    expect(cohortOf({ preview: 'candidates', sides }, 'jobs', remotes)).toBe('preview');
    expect(cohortOf({ sides: {} }, 'jobs', remotes)).toBeUndefined();
  });
});

const { canaryFolder, documentFile, parseDocumentsPlan } = require('./documentFiles');

describe("the documents nginx's collector composes", () => {
  const plan = {
    shellRoot: '/srv/shell/dist',
    origin: 'https://nativegtm.example',
    sampleRate: 0.5,
    fragmentTimeoutMs: 400,
  };

  it('are named by screen and variant key, as nginx looks them up', () => {
    expect(documentFile('jobs', 'sales--_--_')).toBe('jobs/sales--_--_.html');
    expect(documentFile('not-found', 'index')).toBe('not-found/index.html');
  });

  it("are put, with a release store, in the folder of the canaries they list, in the plan's order", () => {
    expect(documentFile('jobs', '_--_--_', ',,jobs=5,')).toBe('jobs/,,jobs=5,/_--_--_.html');
    const remotes = ['candidates', 'employers', 'jobs', 'comingSoon'];
    expect(canaryFolder(remotes, [])).toBe(',,,');
    expect(
      canaryFolder(remotes, [
        { remote: 'jobs', share: 5 },
        { remote: 'candidates', share: 100 },
      ]),
    ).toBe('candidates=100,,jobs=5,');
  });

  it('are composed with a plan read back as written', () => {
    expect(parseDocumentsPlan(JSON.stringify(plan))).toEqual(plan);
    const withCanaries = { ...plan, canaryRemotes: ['jobs', 'comingSoon'] };
    expect(parseDocumentsPlan(JSON.stringify(withCanaries))).toEqual(withCanaries);
  });

  it.each([
    ['{"shellRoot":', 'plan.json is not JSON'],
    ['null', 'plan.json has no shellRoot, an absolute path'],
    [JSON.stringify({ ...plan, shellRoot: 'shell/dist' }), 'plan.json has no shellRoot, an absolute path'],
    [JSON.stringify({ ...plan, origin: 'https://nativegtm.example/path' }), 'plan.json has no origin'],
    [JSON.stringify({ ...plan, origin: 'javascript:alert(1)' }), 'plan.json has no origin'],
    [JSON.stringify({ ...plan, sampleRate: 2 }), 'plan.json has no sampleRate between 0 and 1'],
    [JSON.stringify({ ...plan, sampleRate: '1' }), 'plan.json has no sampleRate between 0 and 1'],
    [JSON.stringify({ ...plan, fragmentTimeoutMs: 0.5 }), 'plan.json has no fragmentTimeoutMs'],
    [JSON.stringify({ ...plan, canaryRemotes: ['../jobs'] }), 'plan.json has canaryRemotes that are not a list'],
    [JSON.stringify({ ...plan, canaryRemotes: 'jobs' }), 'plan.json has canaryRemotes that are not a list'],
  ])('are refused from a plan that is not one (%s): %s', (text, message) => {
    expect(() => parseDocumentsPlan(text)).toThrow(message);
  });
});

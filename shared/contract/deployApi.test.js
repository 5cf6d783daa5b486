// What the deploy API and its commands agree on: the actions a credential may be given, and where a credential may go.
const { DEPLOY_ACTIONS, isSecureOrLoopback, parseDeployActions } = require('./deployApi');

describe('a list of actions', () => {
  it('is read as an operator writes it, each once', () => {
    expect(parseDeployActions('publish, preview,publish')).toEqual(['publish', 'preview']);
    expect(parseDeployActions(DEPLOY_ACTIONS.join(','))).toEqual([...DEPLOY_ACTIONS]);
  });

  it.each([
    ['', /name at least one action/],
    ['publish,deploy-everything', /"deploy-everything" is not an action/],
    ['read', /"read" is not an action/],
  ])('refuses %j', (text, reason) => {
    expect(() => parseDeployActions(text)).toThrow(reason);
  });
});

describe('where a credential may go', () => {
  it.each([
    ['https://deploy.example', true],
    ['http://127.0.0.1:3900', true],
    ['http://localhost:3900', true],
    ['http://[::1]:3900', true],
    ['http://deploy.example', false],
    ['http://127.0.0.1.evil.example', false],
    ['ftp://deploy.example', false],
  ])('%s: %s', (url, safe) => {
    expect(isSecureOrLoopback(new URL(url))).toBe(safe);
  });
});

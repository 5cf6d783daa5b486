/** @jest-environment node */
const { requestTarget } = require('./requestTarget');

describe('requestTarget: a request line target read as nginx reads it', () => {
  it.each([
    ['/employers?function=a%2Db&x', '/employers', '?function=a%2Db&x'],
    ['//employers', '/employers', ''],
    ['/a//b///c', '/a/b/c', ''],
    ['/a/../employers', '/employers', ''],
    ['/employ%65rs', '/employers', ''],
    ['/\\employers', '/\\employers', ''],
    ['/\\', '/\\', ''],
    ['/%', '/%', ''],
    ['/\t/employers?q', '/\t/employers', '?q'],
    ['/\n//employers', '/\n/employers', ''],
    ['http://elsewhere.example/employers?q', '/employers', '?q'],
  ])('reads %j as path %j and query %j', (target, pathname, search) => {
    expect(requestTarget(target)).toEqual({ pathname, search });
  });

  it('reads a target no URL parser can read as a path of no page', () => {
    for (const target of ['*', 'http://[bad/']) {
      expect(requestTarget(target).pathname.startsWith('/\u0000')).toBe(true);
    }
  });
});

import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime';

type CreateScript = NonNullable<ModuleFederationRuntimePlugin['createScript']>;

/** The plugin's createScript, from a fresh copy of the module (its policy is created once per page). */
function createScript(): CreateScript {
  let hook: CreateScript | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module per test, with its own policy
    const plugin = require('./trustedScriptUrls') as typeof import('./trustedScriptUrls');
    hook = plugin.default().createScript;
  });
  return hook!;
}

describe('the trusted script URLs runtime plugin', () => {
  afterEach(() => Reflect.deleteProperty(globalThis, 'trustedTypes'));

  it('leaves the runtime its own element in a browser without Trusted Types', () => {
    expect(createScript()({ url: 'http://localhost:3003/remoteEntry.js', attrs: {} })).toBeUndefined();
  });

  it('sets src through the shell policy, keeps the URL and the attributes, and refuses what is not http(s)', () => {
    const created: string[] = [];
    const urls: string[] = [];
    Object.assign(globalThis, {
      trustedTypes: {
        createPolicy: (name: string, rules: { createScriptURL(url: string): string }) => {
          created.push(name);
          return {
            createScriptURL: (url: string) => {
              urls.push(url);
              return rules.createScriptURL(url);
            },
          };
        },
      },
    });
    const hook = createScript();
    const script = hook({
      url: 'http://localhost:3003/remoteEntry.js',
      attrs: { fetchpriority: 'high', async: true, type: 'text/javascript' },
    }) as HTMLScriptElement;
    expect(created).toEqual(['nativegtm-federation']);
    expect(urls).toEqual(['http://localhost:3003/remoteEntry.js']);
    expect([
      script.getAttribute('src'),
      script.getAttribute('fetchpriority'),
      script.async,
      script.isConnected,
    ]).toEqual(['http://localhost:3003/remoteEntry.js', 'high', true, false]);
    hook({ url: 'http://localhost:3002/remoteEntry.js' });
    expect(created).toHaveLength(1);
    expect(() => hook({ url: 'javascript:alert(1)' })).toThrow(/Not a script URL/);
  });
});

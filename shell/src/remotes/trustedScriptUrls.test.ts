import { createHash } from 'node:crypto';
import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime';
import { REFUSED_INTEGRITY } from '@nativegtm/contract/integrity';

type CreateScript = NonNullable<ModuleFederationRuntimePlugin['createScript']>;
type CreateLink = NonNullable<ModuleFederationRuntimePlugin['createLink']>;

/** The integrity lists the last plugin() reads (a fresh copy of the module too). */
let lists: typeof import('./integrityLists');

/** The plugin, from a fresh copy of the module (its policy is created once per page). */
function plugin(): ModuleFederationRuntimePlugin {
  let created: ModuleFederationRuntimePlugin | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module per test, with its own policy
    const module = require('./trustedScriptUrls') as typeof import('./trustedScriptUrls');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy that module reads
    lists = require('./integrityLists') as typeof import('./integrityLists');
    created = module.default();
  });
  return created!;
}
const createScript = (): CreateScript => plugin().createScript!;
const createLink = (): CreateLink => plugin().createLink!;

describe('the trusted script URLs runtime plugin', () => {
  afterEach(() => Reflect.deleteProperty(globalThis, 'trustedTypes'));

  it("leaves the runtime its own element for the page's own origin in a browser without Trusted Types", () => {
    expect(createScript()({ url: `${location.origin}/remoteEntry.js`, attrs: {} })).toBeUndefined();
  });

  it("requests a remote's scripts with CORS, so their errors are not hidden from the page", () => {
    const script = createScript()({
      url: 'http://localhost:3003/remoteEntry.js',
      attrs: { fetchpriority: 'high' },
    }) as HTMLScriptElement;
    expect([script.src, script.crossOrigin, script.getAttribute('fetchpriority')]).toEqual([
      'http://localhost:3003/remoteEntry.js',
      'anonymous',
      'high',
    ]);
  });

  it("preloads a remote's scripts with CORS too, so the script uses the preload; where nothing is checked, stylesheets stay as they are", () => {
    const link = createLink()({
      url: 'http://localhost:3003/__federation_expose_Page.0123456789.js',
      attrs: { rel: 'preload', as: 'script' },
    }) as HTMLLinkElement;
    expect([link.rel, link.getAttribute('as'), link.crossOrigin, link.href]).toEqual([
      'preload',
      'script',
      'anonymous',
      'http://localhost:3003/__federation_expose_Page.0123456789.js',
    ]);
    expect(
      createLink()({ url: 'http://localhost:3003/a.css', attrs: { rel: 'preload', as: 'style' } }),
    ).toBeUndefined();
    expect(createLink()({ url: `${location.origin}/1.js`, attrs: { rel: 'preload', as: 'script' } })).toBeUndefined();
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
      script.crossOrigin,
    ]).toEqual(['http://localhost:3003/remoteEntry.js', 'high', true, false, 'anonymous']);
    hook({ url: 'http://localhost:3002/remoteEntry.js' });
    expect(created).toHaveLength(1);
    expect(() => hook({ url: 'javascript:alert(1)' })).toThrow(/Not a script URL/);
  });

  describe('in a production build', () => {
    const environment = process.env.NODE_ENV;
    const realFetch = globalThis.fetch;
    const ENTRY = `sha384-${'E'.repeat(64)}`;
    const STYLES = `sha384-${'s'.repeat(64)}`;
    const LIST = JSON.stringify({ 'remoteEntry.js': ENTRY, '1.0123456789.css': STYLES });
    beforeEach(() => {
      process.env.NODE_ENV = 'production';
      globalThis.fetch = (async (url: string) =>
        new Response(url.endsWith('integrity.json') ? LIST : '{}')) as typeof fetch;
    });
    afterEach(() => {
      process.env.NODE_ENV = environment;
      globalThis.fetch = realFetch;
    });

    it("loads a remote's entry and preloads with the integrity of its list, and refuses a file it does not name", async () => {
      const created = plugin();
      lists.vouchFor({ jobs: `sha384-${createHash('sha384').update(LIST).digest('base64')}` });
      const remoteInfo = { name: 'jobs', entry: 'http://localhost:3003/mf-manifest.json' } as never;
      await created.fetch!('http://localhost:3003/mf-manifest.json', {}, remoteInfo);
      const script = created.createScript!({
        url: 'http://localhost:3003/remoteEntry.js',
        remoteInfo,
      }) as HTMLScriptElement;
      expect([script.getAttribute('integrity'), script.crossOrigin]).toEqual([ENTRY, 'anonymous']);
      const style = created.createLink!({
        url: 'http://localhost:3003/1.0123456789.css',
        attrs: { rel: 'preload', as: 'style' },
        remoteInfo,
      }) as HTMLLinkElement;
      expect([style.getAttribute('integrity'), style.crossOrigin, style.getAttribute('as')]).toEqual([
        STYLES,
        'anonymous',
        'style',
      ]);
      const planted = created.createScript!({
        url: 'http://localhost:3003/planted.js',
        remoteInfo,
      }) as HTMLScriptElement;
      expect(planted.getAttribute('integrity')).toBe(REFUSED_INTEGRITY);
      // A module preload loads a script too; and what the runtime adds for no remote is none of the site's.
      const preload = created.createLink!({
        url: 'http://localhost:3003/planted.mjs',
        attrs: { rel: 'modulepreload' },
        remoteInfo,
      }) as HTMLLinkElement;
      expect(preload.getAttribute('integrity')).toBe(REFUSED_INTEGRITY);
      const stray = created.createScript!({ url: 'http://localhost:3003/remoteEntry.js' }) as HTMLScriptElement;
      expect(stray.getAttribute('integrity')).toBe(REFUSED_INTEGRITY);
    });
  });
});

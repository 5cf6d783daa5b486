import { webcrypto, createHash } from 'node:crypto';
import { REFUSED_INTEGRITY } from '@nativegtm/contract/integrity';
import { fetchManifest, resetIntegrityLists, vouchFor } from './integrityLists';
import { noteFailedLoad, refusedFiles, resetFailedLoads, watchFailedLoads } from './refusedFiles';

const BASE = 'http://localhost:3003/';
const integrityOf = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

/** What the remote's server answers now: each file's text, or a 404. */
let served: Record<string, string> = {};
const fetched: string[] = [];

/** A script of the page that failed to load, as the browser tells it: an error event on the element. */
function failedScript(src: string, integrity: string): void {
  const script = document.createElement('script');
  script.setAttribute('integrity', integrity);
  script.src = src;
  document.head.appendChild(script);
  script.dispatchEvent(new Event('error'));
  script.remove();
}

describe('files refused for their bytes', () => {
  const environment = process.env.NODE_ENV;
  const realFetch = globalThis.fetch;
  const realCrypto = globalThis.crypto;
  beforeAll(() => watchFailedLoads());
  beforeEach(async () => {
    process.env.NODE_ENV = 'production';
    resetIntegrityLists();
    resetFailedLoads();
    fetched.length = 0;
    served = {
      [`${BASE}integrity.json`]: JSON.stringify({
        'mf-manifest.json': integrityOf('{}'),
        '262.0123456789.js': integrityOf('the chunk'),
      }),
      [`${BASE}mf-manifest.json`]: '{}',
    };
    globalThis.fetch = (async (url: string) => {
      fetched.push(url);
      const text = served[url];
      return text === undefined ? new Response('', { status: 404 }) : new Response(text);
    }) as typeof fetch;
    Object.defineProperty(globalThis, 'crypto', { configurable: true, value: webcrypto });
    // The remote's list, as the runtime's fetch of its manifest gets it, the site vouching for it.
    vouchFor({ jobs: integrityOf(served[`${BASE}integrity.json`]!) });
    await fetchManifest(`${BASE}mf-manifest.json`, {}, 'jobs');
    fetched.length = 0;
  });
  afterEach(() => {
    process.env.NODE_ENV = environment;
    globalThis.fetch = realFetch;
    Object.defineProperty(globalThis, 'crypto', { configurable: true, value: realCrypto });
  });

  it('are the failed loads of the remote whose bytes, fetched again, are not the ones they were loaded for', async () => {
    served[`${BASE}remoteEntry.js`] = 'window.__tampered = true;';
    served[`${BASE}1.js`] = 'the build wrote this';
    failedScript(`${BASE}remoteEntry.js`, integrityOf('the build wrote this'));
    // Bytes that match: the load failed for another reason (a connection cut); gone: the remote is down.
    failedScript(`${BASE}1.js`, integrityOf('the build wrote this'));
    failedScript(`${BASE}2.js`, integrityOf('the build wrote this'));
    expect(await refusedFiles('jobs', new Error('load failed'))).toEqual([`${BASE}remoteEntry.js`]);
    // Each failure is looked at once.
    expect(await refusedFiles('jobs', new Error('load failed'))).toEqual([]);
  });

  it("holds a chunk to the integrity its remote's own runtime loaded it with, though the list agrees with its bytes", async () => {
    // Someone rewrote the chunk and the list to match; the entry still names the chunk the build wrote.
    served[`${BASE}integrity.json`] = JSON.stringify({ '262.0123456789.js': integrityOf('a planted chunk') });
    served[`${BASE}262.0123456789.js`] = 'a planted chunk';
    failedScript(`${BASE}262.0123456789.js`, integrityOf('the chunk'));
    const chunkError = Object.assign(new Error('Loading chunk 262 failed.'), {
      name: 'ChunkLoadError',
      request: `${BASE}262.0123456789.js`,
    });
    const error = new Error('Remote "jobs": failed to load', { cause: chunkError });
    expect(await refusedFiles('jobs', error)).toEqual([`${BASE}262.0123456789.js`]);
  });

  it('looks at a chunk an error names with the integrity its list names, when no element was seen', async () => {
    served[`${BASE}262.0123456789.js`] = 'a planted chunk';
    const chunkError = Object.assign(new Error('Loading chunk 262 failed.'), { request: `${BASE}262.0123456789.js` });
    expect(await refusedFiles('jobs', new Error('failed', { cause: chunkError }))).toEqual([
      `${BASE}262.0123456789.js`,
    ]);
  });

  it('counts a file its list does not name that answers as refused, even without Web Crypto', async () => {
    Object.defineProperty(globalThis, 'crypto', { configurable: true, value: undefined });
    served[`${BASE}planted.js`] = 'anything';
    served[`${BASE}remoteEntry.js`] = 'anything';
    noteFailedLoad(`${BASE}planted.js`, REFUSED_INTEGRITY);
    failedScript(`${BASE}remoteEntry.js`, integrityOf('the build wrote this'));
    expect(await refusedFiles('jobs', new Error('x'))).toEqual([`${BASE}planted.js`]);
  });

  it('names the list itself when the page found its bytes are not the ones the site vouches for', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    resetIntegrityLists();
    served[`${BASE}integrity.json`] = JSON.stringify({ 'mf-manifest.json': integrityOf('{}') });
    vouchFor({ jobs: integrityOf('the list the build wrote') });
    await fetchManifest(`${BASE}mf-manifest.json`, {}, 'jobs', { vouchedAgain: async () => undefined }).catch(
      () => undefined,
    );
    expect(await refusedFiles('jobs', new Error('x'))).toEqual([`${BASE}integrity.json`]);
    logged.mockRestore();
  });

  it("never looks at another remote's failures", async () => {
    served['http://localhost:3002/remoteEntry.js'] = 'planted';
    failedScript('http://localhost:3002/remoteEntry.js', integrityOf('built'));
    expect(await refusedFiles('jobs', new Error('x'))).toEqual([]);
    expect(fetched).toEqual([]);
  });
});

import { REFUSED_INTEGRITY } from '@nativegtm/contract/integrity';
import { fetchManifest, integrityFor, resetIntegrityLists } from './integrityLists';

const MANIFEST = 'http://localhost:3003/mf-manifest.json';
const MANIFEST_INTEGRITY = `sha384-${'M'.repeat(64)}`;
const ENTRY_INTEGRITY = `sha384-${'E'.repeat(64)}`;
const CHUNK_INTEGRITY = `sha384-${'c'.repeat(64)}`;

/** A fetch that answers each URL from `answers`, and 404 for the rest; it records what each fetch asked for. */
function fakeFetch(answers: Record<string, string | Error>) {
  const fetch = jest.fn(async (url: string, _init?: RequestInit) => {
    const answer = answers[url];
    if (answer instanceof Error) throw answer;
    return answer === undefined ? new Response('', { status: 404 }) : new Response(answer);
  });
  globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
  return fetch;
}

const list = JSON.stringify({
  'mf-manifest.json': MANIFEST_INTEGRITY,
  'remoteEntry.js': ENTRY_INTEGRITY,
  '262.0123456789.js': CHUNK_INTEGRITY,
});

describe('integrity lists', () => {
  const environment = process.env.NODE_ENV;
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    process.env.NODE_ENV = 'production';
    resetIntegrityLists();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    process.env.NODE_ENV = environment;
    globalThis.fetch = realFetch;
    document.cookie = 'nativegtm_override_notice=; max-age=0';
    jest.restoreAllMocks();
  });

  it("fetches a remote's list first, then its manifest with the integrity the list names", async () => {
    const fetch = fakeFetch({ [MANIFEST]: '{"name":"jobs"}', 'http://localhost:3003/integrity.json': list });
    const manifest = await fetchManifest(MANIFEST, { cache: 'no-cache' }, 'jobs');
    expect(await manifest.json()).toEqual({ name: 'jobs' });
    expect(fetch.mock.calls.map(([url, init]) => [url, init?.integrity])).toEqual([
      ['http://localhost:3003/integrity.json', undefined],
      [MANIFEST, MANIFEST_INTEGRITY],
    ]);
    expect(fetch.mock.calls[1]?.[1]?.cache).toBe('no-cache');
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(ENTRY_INTEGRITY);
    expect(integrityFor('jobs', 'http://localhost:3003/262.0123456789.js?v=1')).toBe(CHUNK_INTEGRITY);
  });

  it('refuses what the list does not name, a file of another folder, and every file of a remote without a list', async () => {
    const fetch = fakeFetch({
      [MANIFEST]: '{}',
      'http://localhost:3003/integrity.json': list,
      'http://localhost:3002/mf-manifest.json': '{}',
    });
    await fetchManifest(MANIFEST, {}, 'jobs');
    await fetchManifest('http://localhost:3002/mf-manifest.json', {}, 'employers');
    expect(integrityFor('jobs', 'http://localhost:3003/planted.js')).toBe(REFUSED_INTEGRITY);
    // A name every object has: never Object's own property, whose text a browser would ignore and load the file.
    expect(integrityFor('jobs', 'http://localhost:3003/constructor')).toBe(REFUSED_INTEGRITY);
    expect(integrityFor('jobs', 'http://elsewhere.test/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    expect(integrityFor('employers', 'http://localhost:3002/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    expect(integrityFor('candidates', 'http://localhost:3001/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    // Without a list, its manifest too: the browser refuses whatever it gets.
    expect(fetch.mock.calls.at(-1)).toEqual([
      'http://localhost:3002/mf-manifest.json',
      { integrity: REFUSED_INTEGRITY },
    ]);
    expect(console.error).toHaveBeenCalledWith(expect.stringMatching(/"employers": its files are refused.*HTTP 404/));
  });

  it('refuses every file of a remote whose list is not well-formed', async () => {
    const forged = JSON.stringify({ 'remoteEntry.js': 'sha256-abc' });
    fakeFetch({ [MANIFEST]: '{}', 'http://localhost:3003/integrity.json': forged });
    await fetchManifest(MANIFEST, {}, 'jobs');
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
  });

  it('checks nothing from the dev server that overrides a remote, nor in a development build', async () => {
    const fetch = fakeFetch({ 'http://localhost:5173/mf-manifest.json': '{}' });
    document.cookie = 'nativegtm_override_notice=jobs@http://localhost:5173';
    await fetchManifest('http://localhost:5173/mf-manifest.json', {}, 'jobs');
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['http://localhost:5173/mf-manifest.json']);
    expect(integrityFor('jobs', 'http://localhost:5173/remoteEntry.js')).toBeUndefined();
    expect(integrityFor('employers', 'http://localhost:3002/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    process.env.NODE_ENV = 'development';
    expect(integrityFor('employers', 'http://localhost:3002/remoteEntry.js')).toBeUndefined();
  });

  it("keeps checking the production remote's files whatever the notice cookie says (the page's scripts can write it)", async () => {
    document.cookie = 'nativegtm_override_notice=jobs@http://localhost:5173';
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
  });
});

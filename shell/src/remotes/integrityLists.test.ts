import { REFUSED_INTEGRITY } from '@nativegtm/contract/integrity';
import { fetchManifest, integrityFor, resetIntegrityLists } from './integrityLists';

const MANIFEST = 'http://localhost:3003/mf-manifest.json';
const ENTRY_INTEGRITY = `sha384-${'E'.repeat(64)}`;
const CHUNK_INTEGRITY = `sha384-${'c'.repeat(64)}`;

/** A fetch that answers each URL from `answers`, and 404 for the rest. */
function fakeFetch(answers: Record<string, string | Error>) {
  return jest.fn(async (url: string) => {
    const answer = answers[url];
    if (answer instanceof Error) throw answer;
    return answer === undefined ? new Response('', { status: 404 }) : new Response(answer);
  });
}

const list = JSON.stringify({ 'remoteEntry.js': ENTRY_INTEGRITY, '262.0123456789.js': CHUNK_INTEGRITY });

describe('integrity lists', () => {
  const environment = process.env.NODE_ENV;
  beforeEach(() => {
    process.env.NODE_ENV = 'production';
    resetIntegrityLists();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    process.env.NODE_ENV = environment;
    document.cookie = 'nativegtm_override_notice=; max-age=0';
    jest.restoreAllMocks();
  });

  it("gives each file of a remote the integrity its list names, fetched beside the remote's manifest", async () => {
    const fetch = fakeFetch({ [MANIFEST]: '{"name":"jobs"}', 'http://localhost:3003/integrity.json': list });
    globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
    const manifest = await fetchManifest(MANIFEST, {}, 'jobs');
    expect(await manifest.json()).toEqual({ name: 'jobs' });
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(ENTRY_INTEGRITY);
    expect(integrityFor('jobs', 'http://localhost:3003/262.0123456789.js?v=1')).toBe(CHUNK_INTEGRITY);
  });

  it('refuses what the list does not name, a file of another folder, and every file of a remote without a list', async () => {
    globalThis.fetch = fakeFetch({
      [MANIFEST]: '{}',
      'http://localhost:3003/integrity.json': list,
      'http://localhost:3002/mf-manifest.json': '{}',
    }) as unknown as typeof globalThis.fetch;
    await fetchManifest(MANIFEST, {}, 'jobs');
    await fetchManifest('http://localhost:3002/mf-manifest.json', {}, 'employers');
    expect(integrityFor('jobs', 'http://localhost:3003/planted.js')).toBe(REFUSED_INTEGRITY);
    // A name every object has: never Object's own property, whose text a browser would ignore and load the file.
    expect(integrityFor('jobs', 'http://localhost:3003/constructor')).toBe(REFUSED_INTEGRITY);
    expect(integrityFor('jobs', 'http://elsewhere.test/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    expect(integrityFor('employers', 'http://localhost:3002/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    expect(integrityFor('candidates', 'http://localhost:3001/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    expect(console.error).toHaveBeenCalledWith(expect.stringMatching(/"employers": its files are refused.*HTTP 404/));
  });

  it('refuses every file of a remote whose list is not well-formed', async () => {
    const forged = JSON.stringify({ 'remoteEntry.js': 'sha256-abc' });
    globalThis.fetch = fakeFetch({
      [MANIFEST]: '{}',
      'http://localhost:3003/integrity.json': forged,
    }) as unknown as typeof globalThis.fetch;
    await fetchManifest(MANIFEST, {}, 'jobs');
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
  });

  it('checks nothing for a remote a dev server overrides, nor in a development build', async () => {
    const fetch = fakeFetch({ [MANIFEST]: '{}' });
    globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
    document.cookie = 'nativegtm_override_notice=jobs@http://localhost:3003';
    await fetchManifest(MANIFEST, {}, 'jobs');
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([MANIFEST]);
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBeUndefined();
    expect(integrityFor('employers', 'http://localhost:3002/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    process.env.NODE_ENV = 'development';
    expect(integrityFor('employers', 'http://localhost:3002/remoteEntry.js')).toBeUndefined();
  });
});

import { createHash, webcrypto } from 'node:crypto';
import { REFUSED_INTEGRITY } from '@nativegtm/contract/integrity';
import { fetchManifest, integrityFor, refusedList, resetIntegrityLists, vouchFor, vouchStands } from './integrityLists';

const MANIFEST = 'http://localhost:3003/mf-manifest.json';
const LIST = 'http://localhost:3003/integrity.json';
const sha384 = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;
const ENTRY_INTEGRITY = `sha384-${'E'.repeat(64)}`;
const CHUNK_INTEGRITY = `sha384-${'c'.repeat(64)}`;

/**
 * A fetch that answers each URL from `answers`, and 404 for the rest, and fails as a browser does when the bytes are
 * not the integrity asked for; it records what each fetch asked for.
 */
function fakeFetch(answers: Record<string, string>) {
  const fetch = jest.fn(async (url: string, init?: RequestInit) => {
    const answer = answers[url];
    if (answer !== undefined && init?.integrity && init.integrity !== sha384(answer)) {
      throw new TypeError('Failed to fetch: integrity');
    }
    return answer === undefined ? new Response('', { status: 404 }) : new Response(answer);
  });
  globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
  return fetch;
}

const manifest = '{"name":"jobs"}';
const list = JSON.stringify({
  'mf-manifest.json': sha384(manifest),
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

  it("fetches a remote's list with the integrity the site vouches for, then its manifest with the list's", async () => {
    const fetch = fakeFetch({ [MANIFEST]: manifest, [LIST]: list });
    vouchFor({ jobs: sha384(list) });
    const response = await fetchManifest(MANIFEST, { cache: 'no-cache' }, 'jobs');
    expect(await response.json()).toEqual({ name: 'jobs' });
    expect(fetch.mock.calls.map(([url, init]) => [url, init?.integrity])).toEqual([
      [LIST, sha384(list)],
      [MANIFEST, sha384(manifest)],
    ]);
    expect(fetch.mock.calls[1]?.[1]?.cache).toBe('no-cache');
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(ENTRY_INTEGRITY);
    expect(integrityFor('jobs', 'http://localhost:3003/262.0123456789.js?v=1')).toBe(CHUNK_INTEGRITY);
  });

  it('refuses every file of a remote whose list the site does not vouch for, or whose list is not that one', async () => {
    fakeFetch({ [MANIFEST]: manifest, [LIST]: list });
    const noVouch = async () => undefined;
    await expect(fetchManifest(MANIFEST, {}, 'jobs', { vouchedAgain: noVouch })).rejects.toThrow('integrity');
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    expect(console.error).toHaveBeenCalledWith(
      '[shell] Remote "jobs": its files are refused, Error: the site vouches for no list of http://localhost:3003/',
    );
    // A list rewritten to name a planted file: not the one vouched for.
    vouchFor({ jobs: sha384(list) });
    fakeFetch({ [MANIFEST]: manifest, [LIST]: JSON.stringify({ 'remoteEntry.js': CHUNK_INTEGRITY }) });
    await expect(fetchManifest(MANIFEST, {}, 'jobs', { vouchedAgain: noVouch })).rejects.toThrow('integrity');
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
  });

  it('asks the site once more when the list is not the one vouched for: a release promoted since', async () => {
    fakeFetch({ [MANIFEST]: manifest, [LIST]: list });
    vouchFor({ jobs: sha384('the list of the release live before') });
    const vouchedAgain = jest.fn(async () => sha384(list));
    await fetchManifest(MANIFEST, {}, 'jobs', { vouchedAgain });
    expect(vouchedAgain).toHaveBeenCalledTimes(1);
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(ENTRY_INTEGRITY);
  });

  it("asks the site when it vouched for no list (the remote's server was down for it), and takes one then", async () => {
    fakeFetch({ [MANIFEST]: manifest, [LIST]: list });
    const vouchedAgain = jest.fn(async () => sha384(list));
    await fetchManifest(MANIFEST, {}, 'jobs', { vouchedAgain });
    expect(vouchedAgain).toHaveBeenCalledTimes(1);
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(ENTRY_INTEGRITY);
  });

  it('says a refusal is worth an alert only while the site still vouches for the list the page took', async () => {
    vouchFor({ jobs: sha384(list) });
    expect(await vouchStands('jobs', async () => sha384(list))).toBe(true);
    expect(await vouchStands('jobs', async () => sha384('the list of the release promoted since'))).toBe(false);
    // A site that cannot say: the alert goes out.
    expect(await vouchStands('jobs', async () => undefined)).toBe(true);
  });

  it('refuses what the list does not name, and a file of another folder', async () => {
    fakeFetch({ [MANIFEST]: manifest, [LIST]: list });
    vouchFor({ jobs: sha384(list) });
    await fetchManifest(MANIFEST, {}, 'jobs');
    expect(integrityFor('jobs', 'http://localhost:3003/planted.js')).toBe(REFUSED_INTEGRITY);
    // A name every object has: never Object's own property, whose text a browser would ignore and load the file.
    expect(integrityFor('jobs', 'http://localhost:3003/constructor')).toBe(REFUSED_INTEGRITY);
    expect(integrityFor('jobs', 'http://elsewhere.test/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    expect(integrityFor('candidates', 'http://localhost:3001/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
  });

  it('refuses every file of a remote whose list is not well-formed', async () => {
    const forged = JSON.stringify({ 'remoteEntry.js': 'sha256-abc' });
    fakeFetch({ [MANIFEST]: manifest, [LIST]: forged });
    vouchFor({ jobs: sha384(forged) });
    await expect(fetchManifest(MANIFEST, {}, 'jobs')).rejects.toThrow('integrity');
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
  });

  it('checks nothing from the dev server the site says overrides a remote, nor in a development build', async () => {
    const fetch = fakeFetch({ 'http://localhost:5173/mf-manifest.json': '{}' });
    vouchFor({}, { jobs: 'http://localhost:5173' });
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
    // Even one naming the production remote's own origin, as a sibling host could set it: the list is still fetched.
    document.cookie = 'nativegtm_override_notice=jobs@http://localhost:3003';
    const fetch = fakeFetch({ [MANIFEST]: manifest, [LIST]: list });
    vouchFor({ jobs: sha384(list) });
    await fetchManifest(MANIFEST, {}, 'jobs');
    expect(fetch.mock.calls.map(([url, init]) => [url, init?.integrity])).toEqual([
      [LIST, sha384(list)],
      [MANIFEST, sha384(manifest)],
    ]);
    expect(integrityFor('jobs', 'http://localhost:3003/planted.js')).toBe(REFUSED_INTEGRITY);
  });
});

describe("a remote's list, where the page can hash it (Web Crypto: HTTPS or localhost)", () => {
  const environment = process.env.NODE_ENV;
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    process.env.NODE_ENV = 'production';
    resetIntegrityLists();
    // jsdom has no SubtleCrypto; browsers on the site's origins do.
    Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    process.env.NODE_ENV = environment;
    globalThis.fetch = realFetch;
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    jest.restoreAllMocks();
  });

  it('is checked by the page: a list promoted since it got /remotes.json is taken, with no fetch refused', async () => {
    const fetch = fakeFetch({ [MANIFEST]: manifest, [LIST]: list });
    vouchFor({ jobs: sha384('the list of the release live before') });
    const vouchedAgain = jest.fn(async () => sha384(list));
    await fetchManifest(MANIFEST, {}, 'jobs', { vouchedAgain });
    expect(fetch.mock.calls.map(([url, init]) => [url, init?.integrity])).toEqual([
      [LIST, undefined],
      [MANIFEST, sha384(manifest)],
    ]);
    expect(vouchedAgain).toHaveBeenCalledTimes(1);
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(ENTRY_INTEGRITY);
    expect(refusedList('jobs')).toBeUndefined();
  });

  it('is read again with the manifest when a promote came between their fetches', async () => {
    const next = '{"name":"jobs","release":"next"}';
    const nextList = JSON.stringify({ 'mf-manifest.json': sha384(next), 'remoteEntry.js': ENTRY_INTEGRITY });
    // The list of the release live when the page asked; the manifest of the one promoted since, then its list.
    let answers: Record<string, string> = { [LIST]: list, [MANIFEST]: next };
    const fetch = jest.fn(async (url: string, init?: RequestInit) => {
      const answer = answers[url]!;
      // From the manifest's fetch on, the remote's server serves the next release whole.
      if (url === MANIFEST) answers = { [LIST]: nextList, [MANIFEST]: next };
      if (init?.integrity && init.integrity !== sha384(answer)) throw new TypeError('Failed to fetch: integrity');
      return new Response(answer);
    });
    globalThis.fetch = fetch as unknown as typeof globalThis.fetch;
    vouchFor({ jobs: sha384(list) });
    const response = await fetchManifest(MANIFEST, {}, 'jobs', { vouchedAgain: async () => sha384(nextList) });
    expect(await response.json()).toEqual({ name: 'jobs', release: 'next' });
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([LIST, MANIFEST, LIST, MANIFEST]);
  });

  it('clears a list refused once it is taken, so a later failure is not said to be a refusal', async () => {
    const forged = JSON.stringify({ 'remoteEntry.js': CHUNK_INTEGRITY });
    fakeFetch({ [MANIFEST]: manifest, [LIST]: forged });
    vouchFor({ jobs: sha384(list) });
    await fetchManifest(MANIFEST, {}, 'jobs', { vouchedAgain: async () => undefined }).catch(() => undefined);
    expect(refusedList('jobs')).toBe(LIST);
    fakeFetch({ [MANIFEST]: manifest, [LIST]: list });
    await fetchManifest(MANIFEST, {}, 'jobs', { vouchedAgain: async () => undefined });
    expect(refusedList('jobs')).toBeUndefined();
  });

  it('is refused, and said to be, when its bytes are not the ones the site vouches for, now as before', async () => {
    fakeFetch({ [MANIFEST]: manifest, [LIST]: JSON.stringify({ 'remoteEntry.js': CHUNK_INTEGRITY }) });
    vouchFor({ jobs: sha384(list) });
    const vouchedAgain = jest.fn(async () => sha384(list));
    await expect(fetchManifest(MANIFEST, {}, 'jobs', { vouchedAgain })).rejects.toThrow('integrity');
    expect(integrityFor('jobs', 'http://localhost:3003/remoteEntry.js')).toBe(REFUSED_INTEGRITY);
    expect(refusedList('jobs')).toBe(LIST);
    expect(console.error).toHaveBeenCalledWith(
      `[shell] Remote "jobs": its files are refused, Error: ${LIST} is not the list the site vouches for`,
    );
  });
});

/** @jest-environment node */
const { parseRemotesConfig, readRemotesConfig, RemotesConfigError, servedRemotes } = require('./remotesConfig');

const LIST = `sha384-${'L'.repeat(64)}`;

const complete = {
  candidates: 'http://localhost:3001/mf-manifest.json',
  employers: 'http://localhost:3002/mf-manifest.json',
  jobs: 'https://cdn.example.com/jobs/mf-manifest.json',
  comingSoon: 'http://localhost:3004/mf-manifest.json',
};

describe('parseRemotesConfig', () => {
  it('accepts a complete configuration without problems', () => {
    expect(parseRemotesConfig(complete)).toEqual({ entries: complete, integrity: {}, devServers: {}, problems: [] });
  });

  it.each([null, [], 'candidates', 42])('rejects %p as a whole: there is nothing to read', (json) => {
    expect(() => parseRemotesConfig(json)).toThrow(RemotesConfigError);
  });

  it('disables only the entry whose address is not http(s)', () => {
    const config = parseRemotesConfig({
      ...complete,
      jobs: 'javascript:alert(1)',
      employers: 42,
      comingSoon: 'not a url',
    });
    expect(config.entries).toEqual({ candidates: complete.candidates });
    expect(config.problems).toEqual([
      '/remotes.json: "employers" disabled, its address must be an http(s) URL',
      '/remotes.json: "jobs" disabled, its address must be an http(s) URL',
      '/remotes.json: "comingSoon" disabled, its address must be an http(s) URL',
    ]);
  });

  it('ignores unknown remote names and reports missing ones', () => {
    const { candidates, ...rest } = complete;
    const config = parseRemotesConfig({ ...rest, admin: 'http://localhost:9999/mf-manifest.json' });
    expect(config.entries).toEqual(rest);
    expect(config.problems).toEqual([
      '/remotes.json: unknown remote "admin" ignored (known: candidates, employers, jobs, comingSoon)',
      '/remotes.json: no address for "candidates", its page is disabled',
    ]);
    expect(candidates).toBeDefined();
  });
});

describe('an entry with the integrity of its list', () => {
  it('is read as its URL, with the integrity the server vouches for', () => {
    const config = parseRemotesConfig({ ...complete, jobs: { url: complete.jobs, integrity: LIST } });
    expect(config).toEqual({ entries: complete, integrity: { jobs: LIST }, devServers: {}, problems: [] });
  });

  it('counts as no integrity when it is not a sha384 one, and says so', () => {
    for (const integrity of ['sha256-abc', `${LIST} ${LIST}`, 42, null]) {
      const config = parseRemotesConfig({ ...complete, jobs: { url: complete.jobs, integrity } });
      expect([config.entries.jobs, config.integrity, config.problems]).toEqual([
        complete.jobs,
        {},
        ['/remotes.json: "jobs" names no sha384 integrity: its files will be refused'],
      ]);
    }
  });

  it('disables the entry whose object names no http(s) URL', () => {
    const config = parseRemotesConfig({ ...complete, jobs: { integrity: LIST }, employers: { url: 'javascript:x' } });
    expect(Object.keys(config.entries)).toEqual(['candidates', 'comingSoon']);
    expect(config.integrity).toEqual({});
  });

  it('is what a server writes for browsers, read back the same', () => {
    const served = servedRemotes(complete, { jobs: LIST, employers: undefined });
    expect(served).toEqual({ ...complete, jobs: { url: complete.jobs, integrity: LIST } });
    expect(parseRemotesConfig(served)).toEqual({
      entries: complete,
      integrity: { jobs: LIST },
      devServers: {},
      problems: [],
    });
  });
});

describe("a dev server's entry", () => {
  it('is what a server writes for the browser it checked an override of, read back as that origin', () => {
    const served = servedRemotes({ ...complete, jobs: 'http://localhost:5173/mf-manifest.json' }, {}, 'jobs');
    expect(served.jobs).toEqual({ url: 'http://localhost:5173/mf-manifest.json', devServer: true });
    expect(parseRemotesConfig(served).devServers).toEqual({ jobs: 'http://localhost:5173' });
  });

  it('is only one that says so: an entry without it is no dev server, whatever its address', () => {
    expect(parseRemotesConfig({ ...complete, jobs: { url: complete.jobs, devServer: 'yes' } }).devServers).toEqual({});
  });
});

describe('readRemotesConfig, as the servers read the file', () => {
  it('keeps exactly the entries the shell would load', () => {
    const text = JSON.stringify({ ...complete, jobs: 'ftp://x', admin: 'http://evil.example/mf-manifest.json' });
    const { jobs, ...loaded } = complete;
    expect(readRemotesConfig(text)).toEqual(loaded);
    expect(jobs).toBeDefined();
  });

  it.each(['', 'not json', '[]', 'null', '"x"'])('reads %p as no entries', (text) => {
    expect(readRemotesConfig(text)).toEqual({});
  });
});

import { getRemotesConfig, resetRemotesConfig } from './remotesConfig';

const complete = {
  candidates: 'http://localhost:3001/mf-manifest.json',
  employers: 'http://localhost:3002/mf-manifest.json',
  jobs: 'https://cdn.example.com/jobs/mf-manifest.json',
  comingSoon: 'http://localhost:3004/mf-manifest.json',
};

function jsonResponse(body: unknown, status = 200): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    json: () => (typeof body === 'string' ? Promise.reject(new SyntaxError('bad json')) : Promise.resolve(body)),
  } as Response;
}

describe('getRemotesConfig', () => {
  beforeEach(() => {
    resetRemotesConfig();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('fetches the file once, bypassing the HTTP cache', async () => {
    const fetchImpl = jest.fn().mockResolvedValue(jsonResponse(complete));
    await getRemotesConfig(fetchImpl);
    await getRemotesConfig(fetchImpl);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(fetchImpl).toHaveBeenCalledWith('/remotes.json', { cache: 'no-store' });
  });

  it('names the problem when the file is missing, and fetches again on the next call', async () => {
    const fetchImpl = jest
      .fn()
      .mockResolvedValueOnce(jsonResponse({}, 404))
      .mockResolvedValueOnce(jsonResponse(complete));
    await expect(getRemotesConfig(fetchImpl)).rejects.toThrow('/remotes.json answered HTTP 404');
    await expect(getRemotesConfig(fetchImpl)).resolves.toEqual({
      entries: complete,
      integrity: {},
      devServers: {},
      problems: [],
    });
  });

  it('names the problem when the file is not JSON', async () => {
    const fetchImpl = jest.fn().mockResolvedValue(jsonResponse('<html>'));
    await expect(getRemotesConfig(fetchImpl)).rejects.toThrow('/remotes.json is not valid JSON');
  });

  it('names the problem when the network fails', async () => {
    const fetchImpl = jest.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(getRemotesConfig(fetchImpl)).rejects.toThrow('/remotes.json could not be fetched');
  });

  it('logs configuration problems for operators', async () => {
    const fetchImpl = jest.fn().mockResolvedValue(jsonResponse({ ...complete, jobs: 'ftp://x' }));
    await getRemotesConfig(fetchImpl);
    expect(console.error).toHaveBeenCalledWith('/remotes.json: "jobs" disabled, its address must be an http(s) URL');
  });
});

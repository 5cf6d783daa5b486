import type { PageComponent } from '@nativegtm/design-system';
import { createPageLoader, RemoteLoadError, type FederationRuntime } from './pageLoader';
import type { RemotesConfig } from './remotesConfig';

const Page: PageComponent = () => null;
const config: RemotesConfig = {
  entries: { jobs: 'http://localhost:3003/mf-manifest.json' },
  integrity: {},
  devServers: {},
  problems: [],
};

function setup(overrides: Partial<FederationRuntime> = {}, timeoutMs = 1000) {
  const federation = {
    registerRemotes: jest.fn(),
    loadRemote: jest.fn().mockResolvedValue({ default: Page }),
    preloadRemote: jest.fn().mockResolvedValue(undefined),
    ...overrides,
  } as jest.Mocked<FederationRuntime>;
  const log = jest.fn();
  const loader = createPageLoader({ federation, getConfig: () => Promise.resolve(config), timeoutMs, log });
  return { federation, loader, log };
}

describe('createPageLoader', () => {
  it('registers the remote from the configuration and loads its exposed page', async () => {
    const { federation, loader } = setup();
    await expect(loader.load('jobs')).resolves.toEqual({ default: Page });
    expect(federation.registerRemotes).toHaveBeenCalledWith(
      [{ name: 'jobs', entry: 'http://localhost:3003/mf-manifest.json' }],
      { force: false },
    );
    expect(federation.loadRemote).toHaveBeenCalledWith('jobs/Page');
  });

  it('shares one load between concurrent and later callers', async () => {
    const { federation, loader } = setup();
    await Promise.all([loader.load('jobs'), loader.load('jobs')]);
    await loader.load('jobs');
    expect(federation.loadRemote).toHaveBeenCalledTimes(1);
    expect(federation.registerRemotes).toHaveBeenCalledTimes(1);
  });

  it('does not cache a failure: the next load re-registers the remote with force and fetches again', async () => {
    const { federation, loader, log } = setup({
      loadRemote: jest
        .fn()
        .mockRejectedValueOnce(new Error('ScriptExternalLoadError'))
        .mockResolvedValueOnce({ default: Page }),
    });
    await expect(loader.load('jobs')).rejects.toThrow(
      'Remote "jobs": failed to load from http://localhost:3003/mf-manifest.json',
    );
    expect(log).toHaveBeenCalledTimes(1);
    await expect(loader.load('jobs')).resolves.toEqual({ default: Page });
    expect(federation.registerRemotes).toHaveBeenLastCalledWith(expect.any(Array), { force: true });
  });

  it('fails a remote that is not configured without asking the runtime', async () => {
    const { federation, loader } = setup();
    await expect(loader.load('candidates')).rejects.toThrow('Remote "candidates": no valid address in /remotes.json');
    expect(federation.loadRemote).not.toHaveBeenCalled();
  });

  it('fails when the exposed module is not a component', async () => {
    const { loader } = setup({ loadRemote: jest.fn().mockResolvedValue({ default: 'nope' }) });
    await expect(loader.load('jobs')).rejects.toBeInstanceOf(RemoteLoadError);
  });

  it('fails a load that hangs past the timeout', async () => {
    jest.useFakeTimers();
    try {
      const { loader } = setup({ loadRemote: jest.fn(() => new Promise<never>(() => undefined)) }, 5000);
      const result = loader.load('jobs');
      const assertion = expect(result).rejects.toThrow('Remote "jobs": did not load within 5000 ms');
      await jest.advanceTimersByTimeAsync(5000);
      await assertion;
    } finally {
      jest.useRealTimers();
    }
  });

  it('reports an unavailable configuration as a failure of the remote being opened', async () => {
    const federation = { registerRemotes: jest.fn(), loadRemote: jest.fn(), preloadRemote: jest.fn() };
    const loader = createPageLoader({
      federation,
      getConfig: () => Promise.reject(new Error('/remotes.json answered HTTP 404')),
      timeoutMs: 1000,
      log: jest.fn(),
    });
    const error = await loader.load('jobs').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteLoadError);
    expect((error as RemoteLoadError).remote).toBe('jobs');
    expect((error as Error).cause).toEqual(new Error('/remotes.json answered HTTP 404'));
    expect((error as Error).message).toBe(
      'Remote "jobs": the remotes configuration is unavailable (/remotes.json answered HTTP 404)',
    );
  });
  it('prefetches a page without running it, and the load that follows reuses the registration', async () => {
    const { federation, loader } = setup();
    loader.prefetch('jobs');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(federation.preloadRemote).toHaveBeenCalledWith([
      { nameOrAlias: 'jobs', exposes: ['./Page'], share: false, depsRemote: false },
    ]);
    expect(federation.loadRemote).not.toHaveBeenCalled();

    await expect(loader.load('jobs')).resolves.toEqual({ default: Page });
    expect(federation.registerRemotes).toHaveBeenCalledTimes(1);
  });

  it('leaves prefetch failures to the load that follows, which reports them once', async () => {
    const { federation, loader, log } = setup({
      preloadRemote: jest.fn().mockRejectedValue(new Error('ScriptExternalLoadError')),
      loadRemote: jest.fn().mockRejectedValue(new Error('ScriptExternalLoadError')),
    });
    loader.prefetch('jobs');
    loader.prefetch('candidates'); // not configured: nothing to fetch
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).not.toHaveBeenCalled();
    expect(federation.preloadRemote).toHaveBeenCalledTimes(1);

    await expect(loader.load('jobs')).rejects.toBeInstanceOf(RemoteLoadError);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('does not prefetch a page that is already loading or loaded', async () => {
    const { federation, loader } = setup();
    await loader.load('jobs');
    loader.prefetch('jobs');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(federation.preloadRemote).not.toHaveBeenCalled();
  });
  it('does not report a failed preload, nor cache it: the visit that follows loads again and reports once', async () => {
    const { federation, loader, log } = setup({
      loadRemote: jest
        .fn()
        .mockRejectedValueOnce(new Error('ScriptExternalLoadError'))
        .mockRejectedValueOnce(new Error('ScriptExternalLoadError')),
    });
    loader.preload('jobs');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).not.toHaveBeenCalled();

    await expect(loader.load('jobs')).rejects.toBeInstanceOf(RemoteLoadError);
    expect(federation.loadRemote).toHaveBeenCalledTimes(2);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('reports a failed preload that a visit joined while it was still loading', async () => {
    let fail: (error: Error) => void = () => undefined;
    const { loader, log } = setup({
      loadRemote: jest.fn(
        () =>
          new Promise<never>((_, reject) => {
            fail = reject;
          }),
      ),
    });
    loader.preload('jobs');
    const visit = loader.load('jobs');
    await new Promise((resolve) => setTimeout(resolve, 0));
    fail(new Error('ScriptExternalLoadError'));
    await expect(visit).rejects.toBeInstanceOf(RemoteLoadError);
    expect(log).toHaveBeenCalledTimes(1);
  });
});

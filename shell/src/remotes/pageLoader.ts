import type { PageModule } from '@nativegtm/design-system';
import type { RemoteName } from '@nativegtm/contract/pages';
import { exposedPage } from '@nativegtm/contract/remotes';
import type { RemotesConfig } from './remotesConfig';

/** A remote page that could not be loaded; `remote` names it for logs and for the error screen. */
export class RemoteLoadError extends Error {
  override name = 'RemoteLoadError';

  constructor(
    readonly remote: RemoteName,
    message: string,
    options?: { cause?: unknown },
  ) {
    // The cause's first line names the real problem ("/remotes.json answered HTTP 404", "RUNTIME-003"): it belongs
    // in the one line operators read in the console.
    const reason = options?.cause instanceof Error ? options.cause.message.split('\n')[0] : undefined;
    super(`Remote "${remote}": ${message}${reason ? ` (${reason})` : ''}`, options);
  }
}

/** The calls of the Module Federation runtime the shell needs; injected so the loader is testable. */
export interface FederationRuntime {
  registerRemotes(remotes: { name: string; entry: string }[], options?: { force?: boolean }): void;
  loadRemote<T>(id: string): Promise<T | null>;
  /** Downloads a remote's manifest, entry and the chunks of the listed exposes, without running the page's code. */
  preloadRemote(options: { nameOrAlias: string; exposes: string[]; share: false; depsRemote: false }[]): Promise<void>;
}

export interface PageLoaderOptions {
  federation: FederationRuntime;
  getConfig: () => Promise<RemotesConfig>;
  /** A load that takes longer than this fails, so a hanging remote ends on the error screen. */
  timeoutMs: number;
  log?: (message: string, error: unknown) => void;
}

export interface PageLoader {
  /** The remote's page module; concurrent and later calls share one load. Failed loads are not cached. */
  load(remote: RemoteName): Promise<PageModule>;
  /** Starts loading without waiting or reporting, e.g. when a visitor points at a link. */
  preload(remote: RemoteName): void;
  /**
   * Only downloads the remote's page (remotes.json, manifest, remoteEntry.js, the page's chunks) without running any
   * of it: safe before React and the other shared singletons are loaded, so the first visit fetches its page in
   * parallel with them. Failures are left to the load that follows.
   */
  prefetch(remote: RemoteName): void;
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createPageLoader({
  federation,
  getConfig,
  timeoutMs,
  log = (message, error) => console.error(message, error),
}: PageLoaderOptions): PageLoader {
  const pages = new Map<RemoteName, Promise<PageModule>>();
  /** The entry each remote was registered with, and whether its last load failed. */
  const registrations = new Map<RemoteName, { entry: string; stale: boolean }>();

  function register(remote: RemoteName, entry: string): void {
    const current = registrations.get(remote);
    if (current && current.entry === entry && !current.stale) return;
    // force: re-registering drops what the runtime cached for the remote (its entry, its failed manifest), so a
    // retry or a moved remote really fetches again instead of replaying the old failure.
    federation.registerRemotes([{ name: remote, entry }], { force: current !== undefined });
    registrations.set(remote, { entry, stale: false });
  }

  async function fetchPage(remote: RemoteName): Promise<PageModule> {
    let config: RemotesConfig;
    try {
      config = await getConfig();
    } catch (error) {
      throw new RemoteLoadError(remote, 'the remotes configuration is unavailable', { cause: error });
    }
    const entry = config.entries[remote];
    if (!entry) throw new RemoteLoadError(remote, 'no valid address in /remotes.json');
    register(remote, entry);

    let module: PageModule | null;
    try {
      module = await withTimeout(
        federation.loadRemote<PageModule>(`${remote}/${exposedPage.slice(2)}`),
        timeoutMs,
        () => new RemoteLoadError(remote, `did not load within ${timeoutMs} ms (${entry})`),
      );
    } catch (error) {
      if (error instanceof RemoteLoadError) throw error;
      throw new RemoteLoadError(remote, `failed to load from ${entry}`, { cause: error });
    }
    if (!module || typeof module.default !== 'function') {
      throw new RemoteLoadError(remote, `${exposedPage} does not export a page component`);
    }
    return module;
  }

  /** Loads in the background (preload) report nothing: the failure is not cached, and reported by a real load. */
  const reported = new WeakSet<Promise<PageModule>>();

  function load(remote: RemoteName, { quiet = false } = {}): Promise<PageModule> {
    let page = pages.get(remote);
    if (!page) {
      const attempt: Promise<PageModule> = fetchPage(remote).catch((error: unknown) => {
        pages.delete(remote);
        const registration = registrations.get(remote);
        if (registration) registration.stale = true;
        if (reported.has(attempt)) log(`[shell] ${error instanceof Error ? error.message : String(error)}`, error);
        throw error;
      });
      page = attempt;
      pages.set(remote, page);
    }
    if (!quiet) reported.add(page);
    return page;
  }

  async function prefetchPage(remote: RemoteName): Promise<void> {
    const entry = (await getConfig()).entries[remote];
    if (!entry) return;
    register(remote, entry);
    await federation.preloadRemote([{ nameOrAlias: remote, exposes: [exposedPage], share: false, depsRemote: false }]);
  }

  return {
    load: (remote) => load(remote),
    preload(remote) {
      load(remote, { quiet: true }).catch(() => undefined);
    },
    prefetch(remote) {
      if (pages.has(remote)) return;
      prefetchPage(remote).catch(() => undefined);
    },
  };
}

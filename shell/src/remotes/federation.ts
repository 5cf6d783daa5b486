import { getInstance, type ModuleFederation } from '@module-federation/runtime';
import { getRemotesConfig } from './remotesConfig';
import { createPageLoader, RemoteLoadError } from './pageLoader';
import { reportRefusedFile, reportRemoteFailure } from './reportRemoteFailure';
import { refusedFiles, watchFailedLoads } from './refusedFiles';
import { vouchFor, vouchStands } from './integrityLists';
import { unlessLeaving, whileLoading } from './pageLeft';
import type { RemotesConfig } from './remotesConfig';

let watching = false;

/** `npm run dev`: a remote's rebuild reloads the composed page. Compiled out of production builds. */
async function watchInDevelopment(config: RemotesConfig): Promise<RemotesConfig> {
  if (process.env.NODE_ENV !== 'production' && !watching) {
    watching = true;
    const { reloadOnRemoteRebuild } = await import('../dev/reloadOnRemoteRebuild');
    reloadOnRemoteRebuild(Object.values(config.entries));
  }
  return config;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** Operators may tune the timeout without a rebuild: <meta name="remote-timeout-ms" content="…"> in index.html. */
function configuredTimeout(): number {
  const value = Number(document.querySelector<HTMLMetaElement>('meta[name="remote-timeout-ms"]')?.content);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}

/** The instance the build plugin created for the shell, with the shared singletons already registered. */
function runtime(): ModuleFederation {
  const instance = getInstance();
  if (!instance) throw new Error('Module Federation runtime is not initialised: is the async boundary in place?');
  return instance;
}

/**
 * Negotiates a shared singleton and downloads its chunk without evaluating its module: the chunk's compile and the
 * module's evaluation can then happen in different tasks.
 */
export const loadSharedModule = (name: string): Promise<unknown> => runtime().loadShare(name);

// From the first load on: a remote's chunk that fails is looked at again if its remote's load fails.
watchFailedLoads();

export const pageLoader = createPageLoader({
  federation: {
    registerRemotes: (remotes, options) => runtime().registerRemotes(remotes, options),
    loadRemote: (id) => whileLoading(() => runtime().loadRemote(id)),
    preloadRemote: (options) => whileLoading(() => runtime().preloadRemote(options)),
  },
  getConfig: () =>
    whileLoading(getRemotesConfig)
      .then((config) => {
        vouchFor(config.integrity, config.devServers);
        return config;
      })
      .then(watchInDevelopment),
  timeoutMs: configuredTimeout(),
  // A load the browser cut short because the visitor is leaving: no remote failed.
  log: (message, error) =>
    unlessLeaving(() => {
      console.error(message, error);
      if (!(error instanceof RemoteLoadError)) return;
      reportRemoteFailure(error.remote, error);
      // Then, apart, whether it failed because a file was refused for its bytes: that is worth an alert of its own,
      // unless the site vouches for another release since (a promote while the page loaded).
      void refusedFiles(error.remote, error).then(async (files) => {
        if (files.length === 0 || !(await vouchStands(error.remote))) return;
        files.forEach((file) => reportRefusedFile(error.remote, file));
      });
    }),
});

import {
  parseRemotesConfig,
  REMOTES_CONFIG_PATH,
  RemotesConfigError,
  type RemotesConfig,
} from '@nativegtm/contract/remotesConfig';

/**
 * /remotes.json tells the shell where each remote's mf-manifest.json lives. How an entry is validated is the
 * contract's (@nativegtm/contract/remotesConfig), shared with both servers; this module fetches the file once per page.
 */
export type { RemotesConfig };

let pending: Promise<RemotesConfig> | undefined;

/**
 * Fetches and validates /remotes.json once per page; a failed fetch is not remembered, so "Try again" re-reads it.
 */
export function getRemotesConfig(fetchImpl: typeof fetch = fetch): Promise<RemotesConfig> {
  pending ??= readRemotesConfig(fetchImpl).then(
    (config) => {
      config.problems.forEach((problem) => console.error(problem));
      return config;
    },
    (error: unknown) => {
      pending = undefined;
      throw error;
    },
  );
  return pending;
}

async function readRemotesConfig(fetchImpl: typeof fetch): Promise<RemotesConfig> {
  let response: Response;
  try {
    // no-store: the file is how operators move a remote, an edit must take effect on the next visit.
    response = await fetchImpl(REMOTES_CONFIG_PATH, { cache: 'no-store' });
  } catch (error) {
    throw new RemotesConfigError(`${REMOTES_CONFIG_PATH} could not be fetched: ${String(error)}`);
  }
  if (!response.ok) {
    throw new RemotesConfigError(`${REMOTES_CONFIG_PATH} answered HTTP ${response.status}`);
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new RemotesConfigError(`${REMOTES_CONFIG_PATH} is not valid JSON`);
  }
  return parseRemotesConfig(json);
}

/** For tests: forget the cached configuration. */
export function resetRemotesConfig(): void {
  pending = undefined;
}

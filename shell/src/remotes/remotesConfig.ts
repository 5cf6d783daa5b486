import { remoteNames, type RemoteName } from '@nativegtm/shared/contracts';

/**
 * /remotes.json tells the shell where each remote's mf-manifest.json lives. It is deployment configuration that
 * operators edit by hand, so it is validated entry by entry: a bad entry disables that remote only and says why.
 */
export interface RemotesConfig {
  entries: Partial<Record<RemoteName, string>>;
  /** Human-readable problems for operators, logged to the console. */
  problems: string[];
}

export class RemotesConfigError extends Error {
  override name = 'RemotesConfigError';
}

export const REMOTES_CONFIG_PATH = '/remotes.json';

function validEntryUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function parseRemotesConfig(json: unknown): RemotesConfig {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new RemotesConfigError(
      `${REMOTES_CONFIG_PATH} must be a JSON object mapping remote names to manifest URLs, e.g. ` +
        `{"candidates": "https://…/mf-manifest.json"}`,
    );
  }
  const entries: RemotesConfig['entries'] = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(json)) {
    if (!(remoteNames as readonly string[]).includes(name)) {
      problems.push(`${REMOTES_CONFIG_PATH}: unknown remote "${name}" ignored (known: ${remoteNames.join(', ')})`);
    } else if (!validEntryUrl(value)) {
      problems.push(`${REMOTES_CONFIG_PATH}: "${name}" disabled, its address must be an http(s) URL`);
    } else {
      entries[name as RemoteName] = value;
    }
  }
  for (const name of remoteNames) {
    if (!(name in json)) problems.push(`${REMOTES_CONFIG_PATH}: no address for "${name}", its page is disabled`);
  }
  return { entries, problems };
}

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

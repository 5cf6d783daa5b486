// Each remote's live build, as every process that takes beacons labels them: read in the background from every
// remote's ssr/manifest.json (where remotes.json says the remote is) every few seconds, by each worker of the built-in
// server as by the collector beside nginx. A beacon may come from a page the process never composed (an in-app
// navigation, a document another worker or nginx composed): the manifests its own documents read would not name every
// remote's build.
const { fragmentPaths, parsePageManifest } = require('@nativegtm/contract/fragments');

/** How often the manifests are read again: a promote shows in the labels within this time. */
const POLL_INTERVAL_MS = 5000;
/** A remote that does not answer within this keeps its last known build. */
const FETCH_TIMEOUT_MS = 2000;

/**
 * @param {{ remotes: import('../remotesFile').RemotesFile, intervalMs?: number }} options
 * @returns {{ liveBuilds: () => Map<string, string>, refresh: () => Promise<void>, stop: () => void }}
 */
function pollLiveBuilds({ remotes, intervalMs = POLL_INTERVAL_MS }) {
  /** @type {Map<string, string>} */
  const builds = new Map();

  async function refresh() {
    const entries = Object.entries(remotes.entries() ?? {});
    await Promise.all(
      entries.map(async ([remote, manifestUrl]) => {
        if (!manifestUrl) return;
        try {
          const url = new URL(fragmentPaths.manifest, new URL('./', manifestUrl));
          const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
          if (!response.ok) return;
          builds.set(remote, parsePageManifest(await response.text(), remote).buildId);
        } catch {
          // Unreachable, or not this remote's manifest: the last build known stays, records of others are "other".
        }
      }),
    );
  }

  const timer = setInterval(() => void refresh(), intervalMs);
  timer.unref();
  return { liveBuilds: () => builds, refresh, stop: () => clearInterval(timer) };
}

module.exports = { pollLiveBuilds };

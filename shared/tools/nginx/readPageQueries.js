// What the nginx configuration is generated from, read from disk and from the remotes: remotes.json, and each page's
// query parameters (the variants its build pre-rendered).
const fs = require('node:fs');
const path = require('node:path');
const { deployables } = require('@nativegtm/server/deployables');
const { fragmentPaths, parsePageManifest } = require('@nativegtm/contract/fragments');
const { readRemotesConfig } = require('@nativegtm/contract/remotesConfig');

/** @typedef {import('@nativegtm/contract/pageVariant').PageQuery} PageQuery */
/** @typedef {Partial<Record<string, string>>} RemoteEntries remote name to manifest URL, the valid entries only */

/**
 * The remotes.json the configuration is generated from (by default the shell's dist/remotes.json), and its valid
 * entries (@nativegtm/contract/remotesConfig: the shell's own validation).
 * @param {{ roots?: Record<string, string>, remotesFile?: string }} options
 * @returns {{ remotesPath: string, remotes: RemoteEntries }}
 */
function readRemotesFile({ roots = {}, remotesFile }) {
  const shell = deployables.find((d) => d.role === 'host');
  if (!shell) throw new Error('the deployables list no shell');
  const remotesPath = remotesFile ?? path.join(roots[shell.name] ?? path.join(shell.dir, 'dist'), 'remotes.json');
  try {
    return { remotesPath, remotes: readRemotesConfig(fs.readFileSync(remotesPath, 'utf8')) };
  } catch {
    // No remotes.json: every page falls back to rendering in the browser, which reports the problem.
    return { remotesPath, remotes: {} };
  }
}

/**
 * Whether this configuration's own server for the deployable is where remotes.json says the remote is.
 * @param {string} manifestUrl
 * @param {number} port
 */
function servedHere(manifestUrl, port) {
  const url = new URL(manifestUrl);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return local && Number(url.port || (url.protocol === 'https:' ? 443 : 80)) === port;
}

/**
 * Each page's query parameters (the values its build pre-rendered), read from its remote's ssr/manifest.json: from
 * the dist/ folder this configuration serves when remotes.json points at it, otherwise from the remote's origin
 * (the remote's deployment is the truth, wherever it is). A page whose manifest cannot be read is configured as one
 * without parameters, with a warning: pages with parameters then get no server HTML until the configuration is
 * generated again with the remote up.
 * @param {{ remotes: RemoteEntries, roots?: Record<string, string>, ports?: Record<string, number>,
 *   timeoutMs?: number, fetch?: typeof fetch }} options
 * @returns {Promise<{ queries: Record<string, PageQuery>, warnings: string[] }>}
 */
async function readPageQueries({ remotes, roots = {}, ports = {}, timeoutMs = 5000, fetch: fetchImpl = fetch }) {
  /** @type {Record<string, PageQuery>} */
  const queries = {};
  /** @type {string[]} */
  const warnings = [];
  for (const deployable of deployables) {
    if (deployable.role !== 'remote' || !deployable.remote) continue;
    const manifestUrl = remotes[deployable.remote];
    if (!manifestUrl) continue;
    const url = new URL(fragmentPaths.manifest, new URL('./', manifestUrl));
    try {
      let text;
      if (servedHere(manifestUrl, ports[deployable.name] ?? deployable.port)) {
        const root = roots[deployable.name] ?? path.join(deployable.dir, 'dist');
        text = fs.readFileSync(path.join(root, fragmentPaths.manifest), 'utf8');
      } else {
        const response = await fetchImpl(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
        if (response.status !== 200) {
          await response.body?.cancel();
          throw new Error(`HTTP ${response.status}`);
        }
        text = await response.text();
      }
      queries[deployable.remote] = parsePageManifest(text, deployable.remote).query ?? {};
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      warnings.push(
        `${deployable.remote}: could not read ${url.href} (${reason}); ${deployable.route} is configured ` +
          'as a page without query parameters: generate again once the remote is up.',
      );
      queries[deployable.remote] = {};
    }
  }
  return { queries, warnings };
}

module.exports = { readPageQueries, readRemotesFile };

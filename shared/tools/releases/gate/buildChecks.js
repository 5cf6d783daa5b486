// The gate's checks of a release's files, before any browser: its metadata is a well-formed build of this remote
// with every file it names present, and every shared singleton it asks for is one the live shell provides in a
// version it accepts (a page built against a newer React than the shell's would get the shell's, and break).
const fs = require('node:fs');
const path = require('node:path');
const semver = require('semver');
const { exposedPage } = require('@nativegtm/contract/remotes');
const { checkBuild } = require('../publish');

/** @typedef {{ name: string, ok: boolean, detail?: string }} Check */
/**
 * What mf-manifest.json says that the gate reads.
 * @typedef {{ name?: string, remoteEntry?: { name?: string, path?: string },
 *   shared?: { name: string, singleton?: boolean, requiredVersion?: string }[],
 *   exposes?: { path?: string, assets?: Record<string, Record<string, string[]>> }[] }} FederationManifest
 */

/**
 * @param {string} dir the release's folder
 * @returns {FederationManifest}
 */
function readFederationManifest(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, 'mf-manifest.json'), 'utf8'));
}

/**
 * @param {string} dir
 * @param {string} remote
 * @returns {Check}
 */
function metadataCheck(dir, remote) {
  const name = 'metadata';
  try {
    checkBuild(dir, remote);
    const manifest = readFederationManifest(dir);
    const page = manifest.exposes?.find((expose) => expose.path === exposedPage);
    if (!page) return { name, ok: false, detail: `mf-manifest.json exposes no "${exposedPage}"` };
    const entry = path.join(manifest.remoteEntry?.path ?? '', manifest.remoteEntry?.name ?? '');
    const named = [entry, ...Object.values(page.assets ?? {}).flatMap((kinds) => Object.values(kinds).flat())];
    const missing = named.filter((file) => !file || !fs.existsSync(path.join(dir, file)));
    if (missing.length > 0)
      return { name, ok: false, detail: `files named by mf-manifest.json are missing: ${missing.join(', ')}` };
    return { name, ok: true };
  } catch (error) {
    return { name, ok: false, detail: /** @type {Error} */ (error).message };
  }
}

/**
 * @param {FederationManifest} manifest the release's
 * @param {Record<string, string[]>} provided the versions of each shared package the live shell provides
 * @returns {Check}
 */
function singletonsCheck(manifest, provided) {
  const problems = [];
  for (const shared of manifest.shared ?? []) {
    if (!shared.singleton) continue;
    const versions = provided[shared.name] ?? [];
    const range = shared.requiredVersion ?? '*';
    if (versions.length === 0) {
      problems.push(`${shared.name}: the live shell provides none (a second copy of a singleton)`);
    } else if (!versions.some((version) => semver.satisfies(version, range))) {
      problems.push(`${shared.name}: needs ${range}, the live shell provides ${versions.join(', ')}`);
    }
  }
  return problems.length > 0
    ? { name: 'shared singletons', ok: false, detail: problems.join('; ') }
    : { name: 'shared singletons', ok: true };
}

module.exports = { metadataCheck, singletonsCheck, readFederationManifest };

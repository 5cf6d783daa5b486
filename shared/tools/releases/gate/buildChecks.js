// The gate's check of a release's files beside the store's own (@nativegtm/store/releaseFiles, that they can be
// served): every shared singleton it asks for is one the live shell provides in a version it accepts (a page built
// against a newer React than the shell's would get the shell's, and break).
const semver = require('semver');

/** @typedef {import('@nativegtm/store/releaseFiles').Check} Check */
/** @typedef {import('@nativegtm/store/releaseFiles').FederationManifest} FederationManifest */

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

module.exports = { singletonsCheck };

// Whether a release's files can be served at all: a well-formed build of its remote whose mf-manifest.json exposes the
// page, with every file it names present, and every file a browser may load listed with its integrity. The store
// refuses to make live or preview a release that is not; the gate runs the same check first (@nativegtm/tools
// releases/gate).
const fs = require('node:fs');
const path = require('node:path');
const { exposedPage } = require('@nativegtm/contract/remotes');
const { checkBuild, checkIntegrity } = require('./publish');

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
    checkIntegrity(dir);
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

module.exports = { metadataCheck, readFederationManifest };
